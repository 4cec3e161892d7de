import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StrictSchemaError } from '../errors.js';
import type { JSONObject } from '../json.js';
import { checkStrictSchema, toStrictJSONSchema } from './strict-json-schema.js';
import { zodToJSONSchema } from './zod-to-json-schema.js';

const strict = (schema: z.ZodType): JSONObject => toStrictJSONSchema(zodToJSONSchema(schema));

describe('toStrictJSONSchema', () => {
  it('closes objects, requires every property and makes optional ones nullable', () => {
    expect(strict(z.object({ path: z.string(), limit: z.number().optional() }))).toStrictEqual({
      type: 'object',
      properties: { path: { type: 'string' }, limit: { type: ['number', 'null'] } },
      required: ['path', 'limit'],
      additionalProperties: false,
    });
  });

  it('recurses into nested objects and arrays of objects', () => {
    const schema = z.object({
      owner: z.object({ name: z.string(), email: z.email().optional() }),
      tags: z.array(z.object({ label: z.string(), color: z.string().optional() })),
    });
    expect(strict(schema)['properties']).toStrictEqual({
      owner: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          email: { type: ['string', 'null'], format: 'email' },
        },
        required: ['name', 'email'],
        additionalProperties: false,
      },
      tags: {
        type: 'array',
        items: {
          type: 'object',
          properties: { label: { type: 'string' }, color: { type: ['string', 'null'] } },
          required: ['label', 'color'],
          additionalProperties: false,
        },
      },
    });
  });

  it('makes an optional object or array nullable with anyOf', () => {
    const properties = strict(z.object({ range: z.object({ from: z.number() }).optional(), ids: z.array(z.string()).optional() }))['properties'];
    expect(properties).toStrictEqual({
      range: {
        anyOf: [{ type: 'object', properties: { from: { type: 'number' } }, required: ['from'], additionalProperties: false }, { type: 'null' }],
      },
      ids: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
    });
  });

  it('does not add a second null to a property that already accepts null', () => {
    const properties = strict(
      z.object({ a: z.string().nullish(), b: z.union([z.string(), z.null()]).optional(), c: z.enum(['x', 'y']).nullable().optional() }),
    )['properties'];
    expect(properties).toStrictEqual({
      a: { type: ['string', 'null'] },
      b: { type: ['string', 'null'] },
      c: { anyOf: [{ type: 'string', enum: ['x', 'y'] }, { type: 'null' }] },
    });
  });

  it('keeps a required nullable property as it is', () => {
    const converted = strict(z.object({ note: z.string().nullable() }));
    expect(converted['properties']).toStrictEqual({ note: { type: ['string', 'null'] } });
    expect(converted['required']).toStrictEqual(['note']);
  });

  it('adds null to an optional enum (both to the type and to the values)', () => {
    expect(strict(z.object({ mode: z.enum(['fast', 'slow']).optional() }))['properties']).toStrictEqual({
      mode: { type: ['string', 'null'], enum: ['fast', 'slow', null] },
    });
  });

  it('drops a default and leaves the property nullable so the default applies after the null is stripped', () => {
    expect(strict(z.object({ mode: z.enum(['fast', 'slow']).default('fast') }))['properties']).toStrictEqual({
      mode: { type: ['string', 'null'], enum: ['fast', 'slow', null] },
    });
  });

  it('wraps an optional const in anyOf', () => {
    expect(strict(z.object({ kind: z.literal('file').optional() }))['properties']).toStrictEqual({
      kind: { anyOf: [{ type: 'string', const: 'file' }, { type: 'null' }] },
    });
  });

  it('appends null to an optional union instead of nesting it', () => {
    expect(strict(z.object({ value: z.union([z.string(), z.object({ n: z.number() })]).optional() }))['properties']).toStrictEqual({
      value: {
        anyOf: [{ type: 'string' }, { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false }, { type: 'null' }],
      },
    });
  });

  it('sends a discriminated union (oneOf) as anyOf with closed branches', () => {
    const schema = z.object({
      action: z.discriminatedUnion('kind', [z.object({ kind: z.literal('move'), to: z.string() }), z.object({ kind: z.literal('stop') })]),
    });
    expect(strict(schema)['properties']).toStrictEqual({
      action: {
        anyOf: [
          {
            type: 'object',
            properties: { kind: { type: 'string', const: 'move' }, to: { type: 'string' } },
            required: ['kind', 'to'],
            additionalProperties: false,
          },
          { type: 'object', properties: { kind: { type: 'string', const: 'stop' } }, required: ['kind'], additionalProperties: false },
        ],
      },
    });
  });

  it('gives an enum without a type the type of its values', () => {
    expect(strict(z.object({ level: z.literal(['low', 'high', null]) }))['properties']).toStrictEqual({
      level: { enum: ['low', 'high', null], type: ['string', 'null'] },
    });
  });

  it('drops keywords strict mode does not take and keeps those it does', () => {
    const schema = z.object({
      name: z
        .string()
        .min(1)
        .max(20)
        .regex(/^[a-z]+$/),
      count: z.number().min(0).max(10).multipleOf(2),
      items: z.array(z.string()).min(1).max(3),
    });
    expect(strict(schema)['properties']).toStrictEqual({
      name: { type: 'string', pattern: '^[a-z]+$' },
      count: { type: 'number', minimum: 0, maximum: 10, multipleOf: 2 },
      items: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
    });
  });

  it('transforms $defs of recursive schemas (z.lazy and getters)', () => {
    type Tree = { name: string; children?: Tree[] };
    const Tree: z.ZodType<Tree> = z.lazy(() => z.object({ name: z.string(), children: z.array(Tree).optional() }));
    const converted = strict(z.object({ tree: Tree }));
    expect(converted['properties']).toStrictEqual({ tree: { $ref: '#/$defs/__schema0' } });
    expect(converted['$defs']).toStrictEqual({
      __schema0: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          children: { anyOf: [{ type: 'array', items: { $ref: '#/$defs/__schema0' } }, { type: 'null' }] },
        },
        required: ['name', 'children'],
        additionalProperties: false,
      },
    });
  });

  it('makes an optional $ref nullable with anyOf', () => {
    type Link = { next?: Link; value: number };
    const Link: z.ZodType<Link> = z.lazy(() => z.object({ value: z.number(), next: Link.optional() }));
    const converted = strict(z.object({ head: Link }));
    expect((converted['$defs'] as JSONObject)['__schema0']).toMatchObject({
      properties: { next: { anyOf: [{ $ref: '#/$defs/__schema0' }, { type: 'null' }] } },
      required: ['value', 'next'],
    });
  });

  it('does not modify its input', () => {
    const input = zodToJSONSchema(z.object({ a: z.string().optional() }));
    const before = JSON.stringify(input);
    toStrictJSONSchema(structuredClone(input));
    expect(JSON.stringify(input)).toBe(before);
  });
});

describe('strict-mode refusals', () => {
  const refusal = (schema: JSONObject | z.ZodType) => {
    try {
      toStrictJSONSchema(schema instanceof z.ZodType ? zodToJSONSchema(schema) : schema);
    } catch (error) {
      expect(error).toBeInstanceOf(StrictSchemaError);
      return error as StrictSchemaError;
    }
    throw new Error('expected a StrictSchemaError');
  };

  it.each<[string, JSONObject]>([
    ['allOf', { allOf: [{ type: 'string' }, { minLength: 1 }] }],
    ['not', { not: { type: 'string' } }],
    ['if', { type: 'string', if: { minLength: 1 }, then: { maxLength: 2 } }],
    ['dependentRequired', { type: 'object', properties: {}, dependentRequired: { a: ['b'] } }],
    ['dependentSchemas', { type: 'object', properties: {}, dependentSchemas: { a: { type: 'object' } } }],
    ['patternProperties', { type: 'object', properties: {}, patternProperties: { '^x': { type: 'string' } } }],
    ['prefixItems', { type: 'array', prefixItems: [{ type: 'string' }] }],
    ['unevaluatedProperties', { type: 'object', properties: {}, unevaluatedProperties: false }],
    ['unevaluatedItems', { type: 'array', items: { type: 'string' }, unevaluatedItems: false }],
    ['propertyNames', { type: 'object', properties: {}, propertyNames: { pattern: '^a' } }],
    ['contains', { type: 'array', items: { type: 'string' }, contains: { const: 'a' } }],
  ])('refuses %s with the JSON path of the schema holding it', (keyword, node) => {
    const error = refusal({ type: 'object', properties: { tags: { type: 'array', items: node } }, required: ['tags'] });
    expect(error.path).toBe('$.properties.tags.items');
    expect(error.message).toContain(`"${keyword}" is not supported in strict mode`);
    expect(error.message).toContain('$.properties.tags.items');
    expect(error.code).toBe('strict_schema_unsupported');
  });

  it('refuses an open record (z.record) at its path', () => {
    const error = refusal(z.object({ meta: z.object({ labels: z.record(z.string(), z.string()) }) }));
    expect(error.path).toBe('$.properties.meta.properties.labels');
    expect(error.message).toContain('open record');
    expect(error.issues).toHaveLength(1);
  });

  it('refuses passthrough / catchall objects', () => {
    expect(refusal(z.object({ a: z.looseObject({ b: z.string() }) })).path).toBe('$.properties.a');
    expect(refusal(z.object({ a: z.object({ b: z.string() }).catchall(z.number()) })).path).toBe('$.properties.a');
  });

  it('refuses an unsupported string format and accepts the supported ones', () => {
    const error = refusal(z.object({ link: z.url() }));
    expect(error.path).toBe('$.properties.link');
    expect(error.message).toContain('string format "uri"');
    expect(() =>
      strict(z.object({ a: z.iso.datetime(), b: z.iso.date(), c: z.iso.time(), d: z.iso.duration(), e: z.email(), f: z.uuid(), g: z.ipv4(), h: z.ipv6() })),
    ).not.toThrow();
  });

  it('refuses a schema with no type (z.unknown / z.any)', () => {
    const error = refusal(z.object({ payload: z.unknown() }));
    expect(error.path).toBe('$.properties.payload');
    expect(error.message).toContain('no "type"');
  });

  it('refuses tuples', () => {
    const error = refusal(z.object({ point: z.tuple([z.number(), z.number()]) }));
    expect(error.message).toContain('"prefixItems" is not supported');
    expect(error.issues).toHaveLength(1);
  });

  it('refuses intersections Zod cannot merge (allOf)', () => {
    const error = refusal(z.object({ both: z.intersection(z.string(), z.string().min(1)) }));
    expect(error.path).toBe('$.properties.both');
    expect(error.message).toContain('"allOf"');
  });

  it('refuses a root that is not an object, or is anyOf', () => {
    expect(refusal({ type: 'string' }).path).toBe('$');
    expect(refusal({ type: 'object', anyOf: [{ properties: {} }] }).message).toContain('root must not be "anyOf"');
  });

  it('refuses more than 1000 enum values', () => {
    const values = Array.from({ length: 1001 }, (_, index) => `v${index}`) as [string, ...string[]];
    const error = refusal(z.object({ pick: z.enum(values) }));
    expect(error.path).toBe('$.properties.pick');
    expect(error.message).toContain('1001 values');
    expect(() => strict(z.object({ pick: z.enum(values.slice(0, 1000) as [string, ...string[]]) }))).not.toThrow();
  });

  it('refuses more than 5000 properties in total', () => {
    const shape = (count: number, prefix: string) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`${prefix}${index}`, z.string()]));
    const error = refusal(z.object({ a: z.object(shape(2500, 'a')), b: z.object(shape(2499, 'b')) }));
    expect(error.path).toBe('$');
    expect(error.message).toContain('5001 properties');
    expect(() => strict(z.object({ a: z.object(shape(2500, 'a')), b: z.object(shape(2498, 'b')) }))).not.toThrow();
  });

  it('refuses objects nested deeper than 10 levels', () => {
    const nest = (levels: number): z.ZodType => (levels === 1 ? z.object({ leaf: z.string() }) : z.object({ child: nest(levels - 1) }));
    expect(() => strict(nest(10))).not.toThrow();
    const error = refusal(nest(11));
    expect(error.path).toBe(`$${'.properties.child'.repeat(10)}`);
    expect(error.message).toContain('deeper than 10 levels');
  });

  it('allows recursion through $ref without counting it as infinite nesting', () => {
    type Tree = { children: Tree[] };
    const Tree: z.ZodType<Tree> = z.lazy(() => z.object({ children: z.array(Tree) }));
    expect(() => strict(z.object({ tree: Tree }))).not.toThrow();
  });

  it('lists every problem in issues', () => {
    const error = refusal(z.object({ a: z.unknown(), b: z.url(), c: z.record(z.string(), z.number()) }));
    expect(error.issues.map((issue) => issue.path)).toStrictEqual(['$.properties.a', '$.properties.b', '$.properties.c']);
    expect(error.message).toContain('(and 2 more problems)');
  });

  it('quotes property names that are not identifiers in paths', () => {
    expect(refusal(z.object({ 'odd key': z.unknown() })).path).toBe('$.properties["odd key"]');
  });
});

describe('checkStrictSchema', () => {
  it('accepts a schema that is already strict', () => {
    expect(checkStrictSchema(strict(z.object({ a: z.string(), b: z.array(z.object({ c: z.number().optional() })) })))).toStrictEqual([]);
  });

  it('reports open objects and properties missing from required without rewriting', () => {
    const schema: JSONObject = {
      type: 'object',
      properties: { a: { type: 'string' }, nested: { type: 'object', properties: { b: { type: 'number' } }, required: [], additionalProperties: false } },
      required: ['a', 'nested'],
    };
    expect(checkStrictSchema(schema)).toStrictEqual([
      { path: '$', message: expect.stringContaining('"additionalProperties": false') },
      { path: '$.properties.nested', message: expect.stringContaining('missing: b') },
    ]);
  });

  it('reports oneOf (it is only rewritten for Zod schemas)', () => {
    const schema: JSONObject = {
      type: 'object',
      properties: { x: { oneOf: [{ type: 'string' }, { type: 'number' }] } },
      required: ['x'],
      additionalProperties: false,
    };
    expect(checkStrictSchema(schema)).toStrictEqual([{ path: '$.properties.x', message: expect.stringContaining('"oneOf" is not supported') }]);
  });
});
