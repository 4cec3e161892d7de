import { expect } from 'vitest';
import { z } from 'zod';
import type { JSONObject } from '../json.js';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import type { ValidationResult } from '../validation/validate-tool-arguments.js';

// Tools and assertions shared by the validateToolArguments tests.
export const execute = () => ({ content: 'ok' });
export const describeActivity = () => 'testing';

export const readTool = defineWorkerTool({
  name: 'read_file',
  description: 'Reads a file.',
  schema: z.object({
    path: z.string().min(1),
    offset: z.number().int().optional(),
    limit: z.number().int().max(1000).optional(),
    recursive: z.boolean().optional(),
  }),
  describeActivity,
  execute,
});

export const strictTool = defineWorkerTool({
  name: 'search',
  description: 'Searches.',
  strict: true,
  schema: z.object({
    query: z.string(),
    limit: z.number().int().optional(),
    cursor: z.string().nullable().optional(),
    filter: z.object({ kind: z.string().optional() }).optional(),
  }),
  describeActivity,
  execute,
});

export const itemsTool = defineWorkerTool({
  name: 'save_items',
  description: 'Saves items.',
  schema: z.object({ items: z.array(z.object({ name: z.string(), count: z.number() })), options: z.object({ overwrite: z.boolean() }).optional() }),
  describeActivity,
  execute,
});

export const mcpTool = defineWorkerTool({
  name: 'create_issue',
  description: 'Creates an issue (an MCP tool).',
  jsonSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1 },
      labels: { type: 'array', items: { type: 'string' } },
      due: { type: 'string', format: 'date' },
      priority: { type: 'integer', enum: [1, 2, 3] },
    },
    required: ['title'],
    additionalProperties: false,
    'x-mcp-hint': 'vendor keyword',
  },
  describeActivity,
  execute,
});

export const permissive = defineWorkerTool({ name: 'anything', description: 'Any object.', jsonSchema: { type: 'object' }, describeActivity, execute });
export const zodPermissive = defineWorkerTool({
  name: 'anything_zod',
  description: 'Any object.',
  schema: z.record(z.string(), z.unknown()),
  describeActivity,
  execute,
});

export function expectOk(result: ValidationResult): { params: unknown; repairs: Array<{ kind: string; detail: string }> } {
  if (!result.ok) throw new Error(`expected ok, got: ${result.message}`);
  return result;
}

export function expectMessage(result: ValidationResult): string {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.params)}`);
  expect(result.message).toMatch(/Fix the arguments and call the tool again\.$/);
  return result.message;
}

/** A small seeded PRNG, so the random tests are reproducible. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomString(random: () => number): string {
  const pieces = [
    'a',
    'Z',
    ' ',
    '"',
    "'",
    '\\',
    '\n',
    '{',
    '}',
    '[',
    ']',
    '(',
    ')',
    ':',
    ',',
    '#',
    'NaN',
    'True',
    'TRUE',
    'Null',
    'None',
    '1_000',
    '-Infinity',
    '//',
    '/*',
    '*/',
    '```',
    '```json',
    'é',
    '😀',
    '\u0001',
    '\u2028',
    '\u201c',
    'null',
    '__proto__',
    'constructor',
    'toString',
  ];
  return Array.from({ length: Math.floor(random() * 8) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
}

export function randomValue(random: () => number, depth: number): unknown {
  const pick = random();
  if (depth < 4 && pick < 0.15) return randomObject(random, depth + 1);
  if (depth < 4 && pick < 0.3) return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
  if (pick < 0.6) return randomString(random);
  if (pick < 0.75) return Math.round((random() - 0.5) * 1e6) / (random() < 0.5 ? 1 : 1000);
  if (pick < 0.9) return random() < 0.5;
  return null;
}

export function randomObject(random: () => number, depth: number): JSONObject {
  const object: JSONObject = {};
  for (let index = Math.floor(random() * 5); index > 0; index--) {
    const key = random() < 0.08 ? '__proto__' : randomString(random);
    // An own "__proto__" key, as JSON.parse makes it (plain assignment would set the prototype instead).
    Object.defineProperty(object, key, { value: randomValue(random, depth), writable: true, enumerable: true, configurable: true });
  }
  return object;
}
