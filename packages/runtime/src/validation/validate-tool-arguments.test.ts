import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import type { JSONObject } from '../json.js';
import { validateToolArguments } from './validate-tool-arguments.js';
import type { ValidationResult } from './validate-tool-arguments.js';

const execute = () => ({ content: 'ok' });
const describeActivity = () => 'testing';

const readTool = defineWorkerTool({
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

const strictTool = defineWorkerTool({
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

const itemsTool = defineWorkerTool({
  name: 'save_items',
  description: 'Saves items.',
  schema: z.object({ items: z.array(z.object({ name: z.string(), count: z.number() })), options: z.object({ overwrite: z.boolean() }).optional() }),
  describeActivity,
  execute,
});

const mcpTool = defineWorkerTool({
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

const permissive = defineWorkerTool({ name: 'anything', description: 'Any object.', jsonSchema: { type: 'object' }, describeActivity, execute });
const zodPermissive = defineWorkerTool({ name: 'anything_zod', description: 'Any object.', schema: z.record(z.string(), z.unknown()), describeActivity, execute });

function expectOk(result: ValidationResult): { params: unknown; repairs: Array<{ kind: string; detail: string }> } {
  if (!result.ok) throw new Error(`expected ok, got: ${result.message}`);
  return result;
}

function expectMessage(result: ValidationResult): string {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.params)}`);
  expect(result.message).toMatch(/Fix the arguments and call the tool again\.$/);
  return result.message;
}

describe('validateToolArguments: clean input', () => {
  it('parses valid arguments with Zod and reports no repairs', () => {
    expect(validateToolArguments(readTool, '{"path":"a.txt","limit":10}')).toEqual({ ok: true, params: { path: 'a.txt', limit: 10 }, repairs: [] });
  });

  it('reads empty or whitespace-only arguments as {}', () => {
    expect(validateToolArguments(permissive, '')).toEqual({ ok: true, params: {}, repairs: [] });
    expect(validateToolArguments(permissive, '  \n ')).toEqual({ ok: true, params: {}, repairs: [] });
    expect(expectMessage(validateToolArguments(readTool, ''))).toContain('$.path: missing required property');
  });

  it('returns Zod output (defaults and transforms applied)', () => {
    const tool = defineWorkerTool({
      name: 'with_defaults',
      description: 'Has defaults.',
      schema: z.object({ name: z.string().transform((value) => value.toUpperCase()), mode: z.enum(['a', 'b']).default('a') }),
      describeActivity,
      execute,
    });
    expect(validateToolArguments(tool, '{"name":"x"}')).toEqual({ ok: true, params: { name: 'X', mode: 'a' }, repairs: [] });
  });

  it('never rewrites valid JSON: strings that look like other syntax stay as they are', () => {
    const tricky = {
      a: 'NaN',
      b: "{'single': True}",
      c: '```json\n{"x":1}\n```',
      d: '// not a comment',
      e: 'line\nbreak\ttab\u0000nul',
      f: '{"nested": "json string"}',
      g: [null, true, 1.5e-7, -12, 'Infinity'],
      h: { '': '', 'key with spaces': '“smart”', '😀': '★' },
    };
    for (const text of [JSON.stringify(tricky), JSON.stringify(tricky, null, 2)]) {
      expect(validateToolArguments(permissive, text)).toEqual({ ok: true, params: tricky, repairs: [] });
      expect(validateToolArguments(zodPermissive, text)).toEqual({ ok: true, params: tricky, repairs: [] });
    }
  });

  it('never changes random valid objects (property test, fixed seed): strings with braces, quotes, fences, comment-like text, unicode, own "__proto__" keys', () => {
    const random = mulberry32(20261130);
    let protoKeys = 0;
    for (let round = 0; round < 1000; round++) {
      const value = randomObject(random, 0);
      const text = random() < 0.5 ? JSON.stringify(value) : JSON.stringify(value, null, 1 + Math.floor(random() * 3));
      if (text.includes('"__proto__":')) protoKeys++;
      const result = validateToolArguments(permissive, text);
      expect(result.ok && result.repairs.length === 0 && isDeepStrictEqual(result.params, JSON.parse(text)), text).toBe(true);
    }
    expect(protoKeys).toBeGreaterThan(50);
  });

  it('keeps an own "__proto__" key as data for a jsonSchema tool, at any depth, and never sets a prototype', () => {
    const text = '{"__proto__": {"polluted": true}, "list": [{"__proto__": 1}], "a": {"b": {"__proto__": null}}}';
    const params = expectOk(validateToolArguments(permissive, text)).params as Record<string, unknown>;
    expect(isDeepStrictEqual(params, JSON.parse(text))).toBe(true);
    expect(Object.keys(params)).toEqual(['__proto__', 'list', 'a']);
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    // Spelled with escapes, it is the same key.
    const escaped = expectOk(validateToolArguments(permissive, '{"\\u005f_proto__": 7}')).params as object;
    expect(Object.getOwnPropertyDescriptor(escaped, '__proto__')?.value).toBe(7);
  });

  it('refuses, naming the key, an own "__proto__" key a Zod schema would drop', () => {
    const message = expectMessage(validateToolArguments(zodPermissive, '{"a": 1, "__proto__": {"x": 1}}'));
    expect(message).toContain('the arguments hold a key named "__proto__" at $["__proto__"], which this tool\'s schema cannot receive');
    const nested = defineWorkerTool({ name: 'nested', description: 'Lists.', schema: z.object({ n: z.array(z.record(z.string(), z.number())) }), describeActivity, execute });
    expect(expectMessage(validateToolArguments(nested, '{"n": [{"a": 1}, {"__proto__": 1}]}'))).toContain('at $.n[1]["__proto__"]');
    expect(expectOk(validateToolArguments(zodPermissive, '{"proto": 1, "__proto": 2}')).params).toEqual({ proto: 1, __proto: 2 });
  });

  it('sends a valid object that fails the schema straight to coercion and then the error, without syntax repair', () => {
    const message = expectMessage(validateToolArguments(readTool, '{"path": "a.txt", "limit": "NaN"}'));
    expect(message).toContain('$.limit: expected number, received string "NaN"');
  });
});

describe('validateToolArguments: the repair ladder', () => {
  it('takes one object out of a code fence or prose', () => {
    const fenced = expectOk(validateToolArguments(readTool, 'Sure!\n```json\n{"path": "a.txt"}\n```'));
    expect(fenced.params).toEqual({ path: 'a.txt' });
    expect(fenced.repairs).toEqual([{ kind: 'extracted', detail: 'took the JSON object out of a Markdown code fence' }]);
    expect(expectOk(validateToolArguments(readTool, '{"path": "a.txt"} Let me read this file first.')).repairs[0]?.kind).toBe('extracted');
  });

  it('does not guess between two objects', () => {
    expect(expectMessage(validateToolArguments(readTool, '{"path": "a.txt"}{"path": "b.txt"}'))).toContain('found 2 separate JSON objects');
  });

  it('closes cut-off input keeping only what was complete', () => {
    const result = expectOk(validateToolArguments(readTool, '{"path": "a.txt", "limit": 10, "offset": 12'));
    expect(result.params).toEqual({ path: 'a.txt', limit: 10 });
    expect(result.repairs).toHaveLength(1);
    expect(result.repairs[0]).toMatchObject({ kind: 'closed_truncated' });
    expect(result.repairs[0]?.detail).toContain('dropped an unfinished number');
  });

  it('does not accept the lenient reading of cut-off input when the complete part fails the schema', () => {
    const tool = defineWorkerTool({ name: 'write', description: 'Writes.', schema: z.object({ path: z.string(), content: z.string() }), describeActivity, execute });
    const message = expectMessage(validateToolArguments(tool, '{"path": "a.txt", "content": "Hello, wor'));
    expect(message).toContain('$.content: missing required property');
    expect(message).toContain('The arguments were cut off');
  });

  it('closes unbalanced brackets', () => {
    const result = expectOk(validateToolArguments(itemsTool, '{"items": [{"name": "a", "count": 1}}'));
    expect(result.params).toEqual({ items: [{ name: 'a', count: 1 }] });
    expect(result.repairs.map((repair) => repair.kind)).toEqual(['closed_truncated']);
    expect(result.repairs[0]?.detail).toContain('"}" at position 36 closed an array (read as "]")');
    const stray = expectOk(validateToolArguments(permissive, '{"a": 1}, "b": 2}'));
    expect(stray.params).toEqual({ a: 1, b: 2 });
    expect(stray.repairs.map((repair) => repair.kind)).toEqual(['closed_unbalanced']);
  });

  it('repairs syntax with jsonrepair: quotes, keys, commas, comments, Python literals, NaN', () => {
    const result = expectOk(validateToolArguments(readTool, "{path: 'a.txt', recursive: True, // why\n limit: 5,}"));
    expect(result.params).toEqual({ path: 'a.txt', recursive: true, limit: 5 });
    expect(result.repairs.map((repair) => repair.kind)).toEqual(['syntax_repaired']);
    expect(expectOk(validateToolArguments(permissive, '{"score": NaN, "text": "NaN"}')).params).toEqual({ score: null, text: 'NaN' });
  });

  it('unwraps double-encoded arguments once', () => {
    const result = expectOk(validateToolArguments(readTool, JSON.stringify(JSON.stringify({ path: 'a.txt' }))));
    expect(result.params).toEqual({ path: 'a.txt' });
    expect(result.repairs.map((repair) => repair.kind)).toEqual(['unwrapped']);
    expect(validateToolArguments(permissive, JSON.stringify(JSON.stringify(JSON.stringify({ a: 1 })))).ok).toBe(false);
  });

  it('coerces against the schema: numeric and boolean strings, JSON-encoded objects and arrays, single values', () => {
    const read = expectOk(validateToolArguments(readTool, '{"path": "a.txt", "limit": "20", "recursive": "true"}'));
    expect(read.params).toEqual({ path: 'a.txt', limit: 20, recursive: true });
    expect(read.repairs).toEqual([{ kind: 'coerced', detail: '$.limit: string "20" became the number 20; $.recursive: string "true" became the boolean true' }]);

    const items = expectOk(validateToolArguments(itemsTool, JSON.stringify({ items: JSON.stringify([{ name: 'a', count: '2' }]), options: '{"overwrite": "false"}' })));
    expect(items.params).toEqual({ items: [{ name: 'a', count: 2 }], options: { overwrite: false } });

    expect(expectOk(validateToolArguments(itemsTool, '{"items": {"name": "a", "count": 1}}')).params).toEqual({ items: [{ name: 'a', count: 1 }] });
  });

  it('combines rungs: a fenced, cut-off object whose numbers are strings', () => {
    const result = expectOk(validateToolArguments(readTool, 'Calling:\n{"path": "a.txt", "limit": "5", "offset": "1'));
    expect(result.params).toEqual({ path: 'a.txt', limit: 5 });
    expect(result.repairs.map((repair) => repair.kind)).toEqual(['extracted', 'closed_truncated', 'coerced']);
  });
});

describe('validateToolArguments: strict tools', () => {
  it('removes the synthetic nulls of optional fields before Zod parses, without calling it a repair', () => {
    expect(validateToolArguments(strictTool, '{"query":"x","limit":null,"cursor":null,"filter":{"kind":null}}')).toEqual({
      ok: true,
      params: { query: 'x', cursor: null, filter: {} },
      repairs: [],
    });
  });

  it('coerces after stripping', () => {
    const result = expectOk(validateToolArguments(strictTool, '{"query":"x","limit":"7","cursor":null,"filter":null}'));
    expect(result.params).toEqual({ query: 'x', limit: 7, cursor: null });
    expect(result.repairs.map((repair) => repair.kind)).toEqual(['coerced']);
  });

  it('strips the nulls a repair brings in (Python None) although the text never says null', () => {
    const result = expectOk(validateToolArguments(strictTool, "{'query': 'x', 'limit': None, 'cursor': None}"));
    expect(result.params).toStrictEqual({ query: 'x', cursor: null });
    expect(result.repairs.map((repair) => repair.kind)).toEqual(['syntax_repaired']);
  });

  it('strips nothing from a string that only mentions null; strips a null anywhere else', () => {
    expect(expectOk(validateToolArguments(strictTool, '{"query":"null or not","limit":3}')).params).toStrictEqual({ query: 'null or not', limit: 3 });
    expect(expectOk(validateToolArguments(strictTool, '{"cursor":"c","limit":null,"query":"x"}')).params).toStrictEqual({ query: 'x', cursor: 'c' });
  });
});

describe('validateToolArguments: jsonSchema tools', () => {
  it('validates against the JSON Schema with Ajv (draft-07, formats, enum, closed objects)', () => {
    expect(validateToolArguments(mcpTool, '{"title":"Bug","labels":["a"],"due":"2026-11-30","priority":2}')).toEqual({
      ok: true,
      params: { title: 'Bug', labels: ['a'], due: '2026-11-30', priority: 2 },
      repairs: [],
    });
    const message = expectMessage(validateToolArguments(mcpTool, '{"title":"","due":"tomorrow","priority":5,"assignee":"me"}'));
    expect(message).toContain('$.assignee: unknown property (not allowed by the schema)');
    expect(message).toContain('$.title: must NOT have fewer than 1 characters, received string ""');
    expect(message).toContain('$.due: must match format "date", received string "tomorrow"');
    expect(message).toContain('$.priority: expected one of 1, 2, 3, received number 5');
  });

  it('coerces against the JSON Schema, then passes the Zod schema', () => {
    const result = expectOk(validateToolArguments(mcpTool, '{"title":"Bug","labels":"urgent","priority":"3"}'));
    expect(result.params).toEqual({ title: 'Bug', labels: ['urgent'], priority: 3 });
  });

  it('runs the optional Zod schema after the JSON Schema', () => {
    const tool = defineWorkerTool({
      name: 'submit_result',
      description: 'Submits.',
      jsonSchema: { type: 'object', properties: { score: { type: 'number' } }, required: ['score'] },
      schema: z.object({ score: z.number().max(10) }).passthrough(),
      describeActivity,
      execute,
    });
    expect(expectOk(validateToolArguments(tool, '{"score": 3}')).params).toEqual({ score: 3 });
    expect(expectMessage(validateToolArguments(tool, '{"score": 30}'))).toContain('$.score: Too big: expected number to be <=10, received number 30');
  });

  it('reports a JSON Schema that cannot be compiled as a tool problem, without throwing', () => {
    const tool = defineWorkerTool({ name: 'broken', description: 'Broken.', jsonSchema: { type: 'object', properties: { a: { $ref: '#/nowhere' } } }, describeActivity, execute });
    const result = validateToolArguments(tool, '{"a": 1}');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain('tool definition problem');
  });
});

describe('validateToolArguments: messages for the model', () => {
  it('names each problem with its JSON path, expected and received', () => {
    const message = expectMessage(validateToolArguments(itemsTool, '{"items":[{"name":"a","count":1},{"name":"b","count":2},{"name":7,"count":"x"}]}'));
    expect(message).toBe(
      [
        'Invalid arguments for tool "save_items": 2 problems.',
        '- $.items[2].name: expected string, received number 7',
        '- $.items[2].count: expected number, received string "x"',
        'Received: {"items":[{"name":"a","count":1},{"name":"b","count":2},{"name":7,"count":"x"}]}',
        'Fix the arguments and call the tool again.',
      ].join('\n'),
    );
  });

  it('lists at most 5 problems and quotes at most 200 characters of what was received', () => {
    const bad = { items: Array.from({ length: 40 }, (_, index) => ({ name: index, count: 'many' })) };
    const message = expectMessage(validateToolArguments(itemsTool, JSON.stringify(bad)));
    expect(message.split('\n').filter((line) => line.startsWith('- $.'))).toHaveLength(5);
    expect(message).toContain('- … and 75 more');
    expect(message).toMatch(/Received \(first 200 of \d+ characters\): \{"items/);
    expect(message.length).toBeLessThan(800);
  });

  it('says where the JSON is broken when no rung can read it', () => {
    const message = expectMessage(validateToolArguments(readTool, '{"path": "a.txt",\n "limit",}'));
    expect(message).toContain('not valid JSON: expected ":" after the property name, found "," at position 26 (line 2, column 9).');
    expect(expectMessage(validateToolArguments(readTool, '[1, 2]'))).toContain('must be a JSON object ({...}), received array of 2');
    expect(expectMessage(validateToolArguments(readTool, '42'))).toContain('received number 42');
  });
});

describe('validateToolArguments: limits, never throws, never hangs', () => {
  it('refuses input over 1 MiB (UTF-8 bytes) before any work', () => {
    const padding = 'x'.repeat(1024 * 1024);
    expect(expectMessage(validateToolArguments(permissive, `{"a":"${padding}"}`))).toContain(`the arguments are ${1024 * 1024 + 8} bytes; the limit is 1048576 bytes (1 MiB)`);
    const multibyte = `{"a":"${'é'.repeat(600 * 1024)}"}`; // 600 Ki characters, 1.2 MB
    expect(expectMessage(validateToolArguments(permissive, multibyte))).toContain('the limit is 1048576 bytes');
    const exact = `{"a":"${'x'.repeat(1024 * 1024 - 8)}"}`;
    expect(expectOk(validateToolArguments(permissive, exact)).repairs).toEqual([]);
  });

  it('refuses nesting deeper than 512, valid or broken, without overflowing the stack', () => {
    const nested = (depth: number) => `{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expect(expectOk(validateToolArguments(permissive, nested(512))).repairs).toEqual([]);
    expect(expectMessage(validateToolArguments(permissive, nested(513)))).toContain('nested deeper than 512 levels');
    expect(expectMessage(validateToolArguments(permissive, `{"a":${'['.repeat(100_000)}`))).toContain('nested deeper than 512 levels');
    expect(expectMessage(validateToolArguments(permissive, `${'{a: ['.repeat(5000)}${']}'.repeat(5000)}`))).toContain('nested deeper than 512 levels');
    expect(expectMessage(validateToolArguments(permissive, `He said " here: {"a":${'['.repeat(100_000)}`))).toContain('nested deeper than 512 levels');
    const deepString = JSON.stringify({ a: `${'['.repeat(600)}${']'.repeat(600)}` });
    expect(validateToolArguments(permissive, deepString).ok).toBe(true);
    expect(expectMessage(validateToolArguments(permissive, JSON.stringify(`{"a":${'['.repeat(600)}${']'.repeat(600)}}`)))).toContain(
      'a JSON string holding an object, and that object is unreadable: the arguments are nested deeper than 512 levels',
    );
  });

  it('turns an exception from the tool schema into a message', () => {
    const tool = defineWorkerTool({
      name: 'throws',
      description: 'Throws.',
      schema: z.object({ a: z.string().refine(() => {
        throw new Error('refinement exploded');
      }) }),
      describeActivity,
      execute,
    });
    const result = validateToolArguments(tool, '{"a":"x"}');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain('refinement exploded');
    expect(validateToolArguments(permissive, undefined as unknown as string).ok).toBe(false);
  });

  it('never throws even when the tool schema throws something that cannot be turned into a string', () => {
    const thrownValues: unknown[] = [Object.create(null), { toString: () => { throw new Error('no string'); } }];
    for (const thrown of thrownValues) {
      const tool = defineWorkerTool({
        name: 'throws_odd',
        description: 'Throws an odd value.',
        schema: z.object({ a: z.string() }).refine(() => {
          throw thrown;
        }),
        describeActivity,
        execute,
      });
      const result = validateToolArguments(tool, '{"a":"x"}');
      expect(expectMessage(result)).toContain('Invalid arguments for tool "throws_odd": the arguments could not be validated');
    }
  });

  it('does not hang on a catastrophic pattern of an external JSON Schema (ReDoS)', () => {
    const tool = defineWorkerTool({
      name: 'mcp_search',
      description: 'A tool whose schema came from an MCP server.',
      jsonSchema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string', pattern: '^(a+)+$' } } } },
      describeActivity,
      execute,
    });
    const tags = Array.from({ length: 200 }, () => `${'a'.repeat(50)}!`);
    expect(expectMessage(validateToolArguments(tool, JSON.stringify({ tags })))).toContain('$.tags[0]: must match pattern "^(a+)+$"');
    expect(expectOk(validateToolArguments(tool, JSON.stringify({ tags: [] }))).params).toEqual({ tags: [] });
  });

  it('never throws on random garbage and mutated JSON (fuzz, fixed seed)', () => {
    const random = mulberry32(7);
    const alphabet = '{}[]{}[]"""\'\',,::::  \n\\`tfnTFNul0123456789.-+eE_abcxyz/*#é€😀\u0000\u2028';
    const seeds = ['{"path":"a.txt","limit":10}', '{"items":[{"name":"a","count":1}]}', "```json\n{'a': True}\n```", '{"a":"b\\"c","d":[1,2,{"e":null}]}'];
    for (let round = 0; round < 1000; round++) {
      let text: string;
      if (random() < 0.5) {
        const length = Math.floor(random() * 60);
        text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      } else {
        const chars = [...(seeds[Math.floor(random() * seeds.length)] as string)];
        for (let edits = 1 + Math.floor(random() * 4); edits > 0; edits--) {
          const at = Math.floor(random() * (chars.length + 1));
          const op = random();
          if (op < 0.33) chars.splice(at, 1);
          else if (op < 0.66) chars.splice(at, 0, alphabet[Math.floor(random() * alphabet.length)] as string);
          else chars.length = at;
        }
        text = chars.join('');
      }
      for (const tool of [permissive, readTool, itemsTool, strictTool, mcpTool]) {
        let result: ValidationResult | undefined;
        expect(() => {
          result = validateToolArguments(tool, text);
        }, JSON.stringify(text)).not.toThrow();
        if (result?.ok === true) expect(typeof result.params === 'object' && result.params !== null && !Array.isArray(result.params)).toBe(true);
        else expect(result?.message).toContain('Fix the arguments and call the tool again.');
      }
    }
  });

  it('stays linear on adversarial input near the size limit (finishes; no timing asserted)', () => {
    const big = 1000 * 1000;
    const inputs = [
      `{"a":"${'\\"'.repeat(big / 4)}`,
      `{${'"a":1,'.repeat(big / 7)}`,
      `${'{"a":'.repeat(500)}${'"x",'.repeat(big / 8)}`,
      `prose ${'{'.repeat(400)}${' }'.repeat(big / 4)}`,
      `'${"a' 'b".repeat(big / 8)}`,
      `{"a": [${'1 '.repeat(big / 4)}`,
      `${'```json\n{"a":1}\n```'.repeat(big / 20)}`,
    ];
    for (const input of inputs) expect(typeof validateToolArguments(permissive, input).ok).toBe('boolean');
    // Over 64 KiB, malformed input gets the linear rungs only (jsonrepair is quadratic on some input).
    expect(expectMessage(validateToolArguments(permissive, `{"a": "x" + "${'y'.repeat(70_000)}"}`))).toContain('syntax repair is only tried on arguments up to 64 KiB');
    expect(expectOk(validateToolArguments(permissive, `{'a': '${'x'.repeat(70_000)}'}`)).params).toEqual({ a: 'x'.repeat(70_000) });
    // The linear normalising pass has no such limit: missing commas in an 80 KB array are put back.
    expect(expectOk(validateToolArguments(permissive, `{"a": [${'1 '.repeat(40_000)}]}`)).params).toEqual({ a: Array.from({ length: 40_000 }, () => 1) });
    expect(expectOk(validateToolArguments(permissive, `{"a": "${'x'.repeat(100_000)}`)).params).toEqual({});
  });
});

/** A small seeded PRNG, so the random tests are reproducible. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomString(random: () => number): string {
  const pieces = [
    'a', 'Z', ' ', '"', "'", '\\', '\n', '{', '}', '[', ']', '(', ')', ':', ',', '#', 'NaN', 'True', 'TRUE', 'Null', 'None', '1_000',
    '-Infinity', '//', '/*', '*/', '```', '```json', 'é', '😀', '\u0001', '\u2028', '\u201c', 'null', '__proto__', 'constructor', 'toString',
  ];
  return Array.from({ length: Math.floor(random() * 8) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
}

function randomValue(random: () => number, depth: number): unknown {
  const pick = random();
  if (depth < 4 && pick < 0.15) return randomObject(random, depth + 1);
  if (depth < 4 && pick < 0.3) return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
  if (pick < 0.6) return randomString(random);
  if (pick < 0.75) return Math.round((random() - 0.5) * 1e6) / (random() < 0.5 ? 1 : 1000);
  if (pick < 0.9) return random() < 0.5;
  return null;
}

function randomObject(random: () => number, depth: number): JSONObject {
  const object: JSONObject = {};
  for (let index = Math.floor(random() * 5); index > 0; index--) {
    const key = random() < 0.08 ? '__proto__' : randomString(random);
    // An own "__proto__" key, as JSON.parse makes it (plain assignment would set the prototype instead).
    Object.defineProperty(object, key, { value: randomValue(random, depth), writable: true, enumerable: true, configurable: true });
  }
  return object;
}
