import { describe, expect, it } from 'vitest';
import { coerceToSchema } from './coerce-to-schema.js';

const schema = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    ratio: { type: 'number' },
    flag: { type: 'boolean' },
    name: { type: 'string' },
    options: { type: 'object', properties: { depth: { type: 'integer' } } },
    tags: { type: 'array', items: { type: 'string' } },
    ids: { type: 'array', items: { type: 'integer' } },
    maybe: { anyOf: [{ type: 'number' }, { type: 'null' }] },
    node: { $ref: '#/$defs/node' },
  },
  $defs: { node: { type: 'object', properties: { size: { type: 'number' }, child: { $ref: '#/$defs/node' } } } },
};

describe('coerceToSchema', () => {
  it('turns numeric and boolean strings into numbers and booleans where the schema expects them', () => {
    const result = coerceToSchema({ count: '3', ratio: ' 0.5 ', flag: 'false', maybe: '7' }, schema);
    expect(result.value).toEqual({ count: 3, ratio: 0.5, flag: false, maybe: 7 });
    expect(result.changes).toEqual([
      '$.count: string "3" became the number 3',
      '$.ratio: string " 0.5 " became the number 0.5',
      '$.flag: string "false" became the boolean false',
      '$.maybe: string "7" became the number 7',
    ]);
  });

  it('does not make a fractional integer or a non-numeric string a number', () => {
    const result = coerceToSchema({ count: '3.5', ratio: '1e', flag: 'yes' }, schema);
    expect(result.changes).toEqual([]);
  });

  it('parses a JSON-encoded object or array string once, then coerces inside it', () => {
    const result = coerceToSchema({ options: '{"depth": "2"}', tags: '["a","b"]' }, schema);
    expect(result.value).toEqual({ options: { depth: 2 }, tags: ['a', 'b'] });
    expect(result.changes[0]).toBe('$.options: parsed the JSON-encoded string into an object');
  });

  it('wraps a single value in an array when it fits the item type, and a number where only a string fits', () => {
    expect(coerceToSchema({ tags: 'a', ids: '4', name: 42 }, schema).value).toEqual({ tags: ['a'], ids: [4], name: '42' });
    expect(coerceToSchema({ ids: 'x' }, schema).value).toEqual({ ids: 'x' });
  });

  it('follows $ref, including recursive ones', () => {
    expect(coerceToSchema({ node: { size: '1', child: { size: '2', child: {} } } }, schema).value).toEqual({
      node: { size: 1, child: { size: 2, child: {} } },
    });
  });

  it('leaves values the schema accepts untouched and does not mutate the input', () => {
    const input = { count: 3, name: 'x', tags: ['a'], options: { depth: '1' } };
    const result = coerceToSchema(input, schema);
    expect(input.options.depth).toBe('1');
    expect(result.value).toEqual({ count: 3, name: 'x', tags: ['a'], options: { depth: 1 } });
    const untouched = { name: 'x' };
    expect(coerceToSchema(untouched, schema).value).toBe(untouched);
  });

  it('never throws on odd schemas', () => {
    for (const odd of [null, 42, [], { $ref: '#/nowhere' }, { $ref: '#' }, { anyOf: 'x' }, { type: 7 }, { items: [{ type: 'number' }] }]) {
      expect(() => coerceToSchema({ a: '1', b: ['2'] }, odd)).not.toThrow();
    }
  });
});
