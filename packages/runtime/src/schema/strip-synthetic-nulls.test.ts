import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { JSONObject } from '../json.js';
import { stripSyntheticNulls } from './strip-synthetic-nulls.js';
import { zodToJSONSchema } from './zod-to-json-schema.js';

describe('stripSyntheticNulls', () => {
  it('removes a null sent for an optional property and reports its path', () => {
    const original = zodToJSONSchema(z.object({ path: z.string(), limit: z.number().optional() }));
    expect(stripSyntheticNulls({ path: 'a.txt', limit: null }, original)).toStrictEqual({ value: { path: 'a.txt' }, stripped: ['$.limit'] });
  });

  it('keeps a null the schema accepts itself (nullable, nullish, a union with null, an enum with null)', () => {
    const original = zodToJSONSchema(
      z.object({
        a: z.string().nullable(),
        b: z.string().nullish(),
        c: z.union([z.number(), z.null()]).optional(),
        d: z.literal(['x', null]).optional(),
      }),
    );
    const value = { a: null, b: null, c: null, d: null };
    const result = stripSyntheticNulls(value, original);
    expect(result).toStrictEqual({ value, stripped: [] });
    expect(result.value).toBe(value);
  });

  it('keeps a null for a required property (Zod reports it)', () => {
    const original = zodToJSONSchema(z.object({ path: z.string() }));
    expect(stripSyntheticNulls({ path: null }, original).stripped).toStrictEqual([]);
  });

  it('lets Zod apply a default once the null is gone', () => {
    const schema = z.object({ mode: z.enum(['fast', 'slow']).default('fast') });
    const { value } = stripSyntheticNulls({ mode: null }, zodToJSONSchema(schema));
    expect(schema.parse(value)).toStrictEqual({ mode: 'fast' });
  });

  it('walks nested objects and arrays', () => {
    const original = zodToJSONSchema(
      z.object({
        owner: z.object({ name: z.string(), email: z.string().optional() }),
        tags: z.array(z.object({ label: z.string(), color: z.string().optional() })),
      }),
    );
    const result = stripSyntheticNulls(
      {
        owner: { name: 'ada', email: null },
        tags: [
          { label: 'a', color: null },
          { label: 'b', color: 'red' },
        ],
      },
      original,
    );
    expect(result).toStrictEqual({
      value: { owner: { name: 'ada' }, tags: [{ label: 'a' }, { label: 'b', color: 'red' }] },
      stripped: ['$.owner.email', '$.tags[0].color'],
    });
  });

  it('follows $ref into $defs, recursively', () => {
    type Tree = { name: string; note?: string; children?: Tree[] };
    const Tree: z.ZodType<Tree> = z.lazy(() => z.object({ name: z.string(), note: z.string().optional(), children: z.array(Tree).optional() }));
    const original = zodToJSONSchema(z.object({ tree: Tree }));
    const result = stripSyntheticNulls({ tree: { name: 'r', note: null, children: [{ name: 'c', note: null, children: null }] } }, original);
    expect(result).toStrictEqual({
      value: { tree: { name: 'r', children: [{ name: 'c' }] } },
      stripped: ['$.tree.note', '$.tree.children[0].note', '$.tree.children[0].children'],
    });
  });

  it('picks the union branch the value fits (discriminated unions)', () => {
    const original = zodToJSONSchema(
      z.object({
        action: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('move'), to: z.string(), speed: z.number().optional() }),
          z.object({ kind: z.literal('say'), text: z.string(), to: z.string().nullable().optional() }),
        ]),
      }),
    );
    expect(stripSyntheticNulls({ action: { kind: 'move', to: 'x', speed: null } }, original).stripped).toStrictEqual(['$.action.speed']);
    expect(stripSyntheticNulls({ action: { kind: 'say', text: 'hi', to: null } }, original).stripped).toStrictEqual([]);
  });

  it('walks an optional object sent as a value', () => {
    const original = zodToJSONSchema(z.object({ range: z.object({ from: z.number(), to: z.number().optional() }).optional() }));
    expect(stripSyntheticNulls({ range: { from: 1, to: null } }, original)).toStrictEqual({ value: { range: { from: 1 } }, stripped: ['$.range.to'] });
    expect(stripSyntheticNulls({ range: null }, original)).toStrictEqual({ value: {}, stripped: ['$.range'] });
  });

  it('never modifies its input', () => {
    const original = zodToJSONSchema(z.object({ a: z.object({ b: z.string().optional() }), list: z.array(z.object({ c: z.number().optional() })) }));
    const value = { a: { b: null }, list: [{ c: null }] };
    const snapshot = structuredClone(value);
    const result = stripSyntheticNulls(value, original);
    expect(value).toStrictEqual(snapshot);
    expect(result.value).not.toBe(value);
  });

  it('leaves values that do not match the schema alone', () => {
    const original: JSONObject = { type: 'object', properties: { a: { type: 'string' } } };
    for (const value of [null, 'text', 3, [null], { b: null }]) {
      expect(stripSyntheticNulls(value, original)).toStrictEqual({ value, stripped: [] });
    }
  });

  it('keeps the order of the other keys, and an own "__proto__" key as data, in the copy', () => {
    const original: JSONObject = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' }, c: { type: 'string' } } };
    const value = JSON.parse('{"c":"x","__proto__":{"p":1},"b":null,"a":"y"}') as Record<string, unknown>;
    const result = stripSyntheticNulls(value, original);
    const copy = result.value as Record<string, unknown>;
    expect(Object.keys(copy)).toEqual(['c', '__proto__', 'a']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toStrictEqual({ p: 1 });
    expect(result.stripped).toStrictEqual(['$.b']);
  });

  it('handles keys that are not identifiers in paths', () => {
    const original = zodToJSONSchema(z.object({ 'max-count': z.number().optional() }));
    expect(stripSyntheticNulls({ 'max-count': null }, original).stripped).toStrictEqual(['$["max-count"]']);
  });
});
