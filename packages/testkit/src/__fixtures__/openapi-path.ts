import path from 'node:path';

/** The repository root (this file is packages/testkit/src/__fixtures__/openapi-path.ts). */
export const repoRoot = path.resolve(import.meta.dirname, '../../../..');

/** The OpenAI OpenAPI document shared by every workspace, read at test time. */
export const openapiPath = path.resolve(repoRoot, '../shared/reference/openai-openapi.json');
