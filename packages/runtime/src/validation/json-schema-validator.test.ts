import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from './json-schema-validator.js';

const compile = (schema: object) => {
  const compiled = compileJsonSchema(schema);
  if (!compiled.ok) throw new Error(compiled.message);
  return compiled.check;
};

describe('compileJsonSchema', () => {
  it('validates draft 2020-12 by default, with formats and vendor keywords ignored', () => {
    const check = compile({
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, n: { type: 'integer', minimum: 1 }, tuple: { prefixItems: [{ type: 'string' }] } },
      required: ['email'],
      additionalProperties: false,
      'x-vendor': { anything: true },
    });
    expect(check({ email: 'a@b.co', n: 2, tuple: ['x'] })).toEqual([]);
    expect(check({ email: 'nope', n: 0, tuple: [1], extra: 1 })).toEqual([
      { path: ['extra'], message: 'unknown property (not allowed by the schema)' },
      { path: ['email'], message: 'must match format "email"', showReceived: true },
      { path: ['n'], message: 'must be >= 1', showReceived: true },
      { path: ['tuple', 0], message: 'expected string', showReceived: true },
    ]);
    expect(check({})).toEqual([{ path: ['email'], message: 'missing required property' }]);
  });

  it('validates draft-07 schemas (definitions, tuple items)', () => {
    const check = compile({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] }, item: { $ref: '#/definitions/item' } },
      definitions: { item: { type: 'object', required: ['id'] } },
    });
    expect(check({ pair: ['a', 1], item: { id: 1 } })).toEqual([]);
    expect(check({ pair: ['a', 'b'], item: {} })).toEqual([
      { path: ['pair', 1], message: 'expected number', showReceived: true },
      { path: ['item', 'id'], message: 'missing required property' },
    ]);
  });

  it('folds anyOf type branches into one issue', () => {
    const check = compile({ type: 'object', properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] } } });
    expect(check({ a: 5 })).toEqual([{ path: ['a'], message: 'expected string or null', showReceived: true }]);
  });

  it('compiles each schema object once, and schemas sharing an $id do not clash', () => {
    const schema = { $id: 'https://example.com/args', type: 'object' };
    expect(compileJsonSchema(schema)).toBe(compileJsonSchema(schema));
    expect(compileJsonSchema({ $id: 'https://example.com/args', type: 'object', required: ['x'] })).toMatchObject({ ok: true });
  });

  it('validates a recursive schema that refers to its root ("$ref": "#"), also with an $id shared by another tool', () => {
    for (const extra of [{}, { $id: 'https://example.com/tree' }]) {
      const check = compile({
        ...extra,
        type: 'object',
        properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
        required: ['name'],
      });
      expect(check({ name: 'root', children: [{ name: 'a', children: [{ name: 'b' }] }] })).toEqual([]);
      expect(check({ name: 'root', children: [{ name: 'a', children: [{ title: 'b' }] }] })).toEqual([
        { path: ['children', 0, 'children', 0, 'name'], message: 'missing required property' },
      ]);
    }
  });

  it('reports a schema Ajv cannot compile instead of throwing', () => {
    expect(compileJsonSchema({ type: 'object', properties: { a: { $ref: '#/missing' } } })).toMatchObject({ ok: false });
    expect(compileJsonSchema({ type: 'nonsense' })).toMatchObject({ ok: false });
  });

  it('counts only own properties as present: inherited names (toString, constructor, __proto__) do not satisfy required', () => {
    const check = compile({ type: 'object', required: ['toString', 'constructor', '__proto__'] });
    expect(check({}).map((issue) => issue.path)).toEqual([['toString'], ['constructor'], ['__proto__']]);
    expect(check(JSON.parse('{"toString": 1, "constructor": 2, "__proto__": 3}'))).toEqual([]);
    const closed = compile({ type: 'object', properties: { valueOf: { type: 'string' } }, additionalProperties: false });
    expect(closed({})).toEqual([]);
  });
});
