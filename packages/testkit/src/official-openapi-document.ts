import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where the official OpenAI OpenAPI document is, when a checkout has it beside the repository. */
export interface OfficialOpenapiDocument {
  /** `<repository>/../shared/reference/openai-openapi.json`, absolute. */
  readonly path: string;
  /** Whether the file is there. */
  readonly present: boolean;
  /** One line naming what is absent, for the title or log line of a check that skips without it. */
  readonly skipNote: string;
}

/**
 * Looks for the official OpenAI OpenAPI description at `../shared/reference/openai-openapi.json` beside the
 * repository (our CI checkout has it; a user's clone does not; it is read at test time, never copied). Checks
 * that need it run as well when it is present and skip with `skipNote` when it is absent; everything else uses
 * the testkit's own description of the request, which needs no file. Never throws.
 */
export function officialOpenapiDocument(): OfficialOpenapiDocument {
  // This file is <repository>/packages/testkit/{src,dist}/…, so the repository is three folders up.
  const path = fileURLToPath(new URL('../../../../shared/reference/openai-openapi.json', import.meta.url));
  const present = existsSync(path);
  return { path, present, skipNote: 'skipped: ../shared/reference/openai-openapi.json absent' };
}
