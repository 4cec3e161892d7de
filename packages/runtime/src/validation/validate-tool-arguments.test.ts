import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import { validateToolArguments } from './validate-tool-arguments.js';
import {
  execute,
  describeActivity,
  readTool,
  strictTool,
  itemsTool,
  mcpTool,
  permissive,
  zodPermissive,
  expectOk,
  expectMessage,
  mulberry32,
  randomObject,
} from '../__fixtures__/validation-tools.js';

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
    const nested = defineWorkerTool({
      name: 'nested',
      description: 'Lists.',
      schema: z.object({ n: z.array(z.record(z.string(), z.number())) }),
      describeActivity,
      execute,
    });
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
    const tool = defineWorkerTool({
      name: 'write',
      description: 'Writes.',
      schema: z.object({ path: z.string(), content: z.string() }),
      describeActivity,
      execute,
    });
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
    expect(read.repairs).toEqual([
      { kind: 'coerced', detail: '$.limit: string "20" became the number 20; $.recursive: string "true" became the boolean true' },
    ]);

    const items = expectOk(
      validateToolArguments(itemsTool, JSON.stringify({ items: JSON.stringify([{ name: 'a', count: '2' }]), options: '{"overwrite": "false"}' })),
    );
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
    const tool = defineWorkerTool({
      name: 'broken',
      description: 'Broken.',
      jsonSchema: { type: 'object', properties: { a: { $ref: '#/nowhere' } } },
      describeActivity,
      execute,
    });
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
