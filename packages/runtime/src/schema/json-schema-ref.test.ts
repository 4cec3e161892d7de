import { describe, expect, it } from 'vitest';
import type { JSONObject } from '../json.js';
import { acceptsNull, followRefs, MAX_REF_HOPS, resolveRef } from './json-schema-ref.js';

describe('resolveRef', () => {
  const root: JSONObject = {
    type: 'object',
    $defs: { 'a/b': { type: 'string' }, 'c~d': { type: 'number' }, 'e f': { type: 'boolean' } },
    definitions: { old: { type: 'integer' } },
  };

  it('follows "#", $defs, definitions and escaped JSON-pointer tokens', () => {
    expect(resolveRef('#', root)).toBe(root);
    expect(resolveRef('#/definitions/old', root)).toEqual({ type: 'integer' });
    expect(resolveRef('#/$defs/a~1b', root)).toEqual({ type: 'string' });
    expect(resolveRef('#/$defs/c~0d', root)).toEqual({ type: 'number' });
    expect(resolveRef('#/$defs/e%20f', root)).toEqual({ type: 'boolean' });
  });

  it('resolves nothing outside the schema, at inherited members, or at a non-schema', () => {
    expect(resolveRef('other.json#/x', root)).toBeUndefined();
    expect(resolveRef('#/$defs/missing', root)).toBeUndefined();
    expect(resolveRef('#/__proto__', root)).toBeUndefined();
    expect(resolveRef('#/$defs/constructor', root)).toBeUndefined();
    expect(resolveRef('#/type', root)).toBeUndefined();
  });
});

describe('followRefs', () => {
  it('follows a chain of refs to the schema object', () => {
    const root: JSONObject = { $defs: { a: { $ref: '#/$defs/b' }, b: { type: 'string' } } };
    expect(followRefs({ $ref: '#/$defs/a' }, root)).toEqual({ type: 'string' });
    expect(followRefs({ type: 'number' }, root)).toEqual({ type: 'number' });
  });

  it(`gives up after ${MAX_REF_HOPS} hops (a ref cycle) instead of looping`, () => {
    const root: JSONObject = { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } };
    expect(followRefs({ $ref: '#/$defs/a' }, root)).toBeUndefined();
    const chain: JSONObject = { $defs: {} };
    const defs = chain['$defs'] as JSONObject;
    for (let index = 0; index < MAX_REF_HOPS; index += 1) defs[`d${index}`] = { $ref: `#/$defs/d${index + 1}` };
    defs[`d${MAX_REF_HOPS}`] = { type: 'string' };
    expect(followRefs({ $ref: '#/$defs/d1' }, chain)).toEqual({ type: 'string' });
    expect(followRefs({ $ref: '#/$defs/d0' }, chain)).toBeUndefined();
  });

  it('keeps the keywords beside a ref that resolves to nothing only when asked', () => {
    const node = { $ref: '#/$defs/missing', type: 'string' };
    expect(followRefs(node, {})).toBeUndefined();
    expect(followRefs(node, {}, true)).toEqual({ type: 'string' });
  });
});

describe('acceptsNull', () => {
  it('sees null through types, enums, unions and refs, and not through a ref cycle', () => {
    const root: JSONObject = { $defs: { n: { type: 'null' }, loop: { $ref: '#/$defs/loop' } } };
    expect(acceptsNull({ type: ['string', 'null'] }, root)).toBe(true);
    expect(acceptsNull({ enum: ['a', null] }, root)).toBe(true);
    expect(acceptsNull({ anyOf: [{ type: 'string' }, { $ref: '#/$defs/n' }] }, root)).toBe(true);
    expect(acceptsNull({ type: 'string' }, root)).toBe(false);
    expect(acceptsNull({ $ref: '#/$defs/loop' }, root)).toBe(false);
  });
});
