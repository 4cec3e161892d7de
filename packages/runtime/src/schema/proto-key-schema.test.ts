import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import type { JSONObject } from '../json.js';
import { findProtoKeyProperties, withProtoKeyRules } from './proto-key-schema.js';
import { validateToolArguments } from '../validation/validate-tool-arguments.js';

/** A JSON Schema read from JSON text: `"__proto__"` keys are own data keys there (as in a schema loaded from a file). */
const schemaOf = (text: string) => JSON.parse(text) as JSONObject;

const jsonTool = (jsonSchema: JSONObject) =>
  defineWorkerTool({
    name: 'proto_tool',
    description: 'Takes a "__proto__" field.',
    jsonSchema,
    describeActivity: () => 'Working',
    execute: async () => ({ content: 'ok' }),
  });

describe('a property named "__proto__" in a jsonSchema tool', () => {
  const typed = schemaOf(
    '{"type": "object", "properties": {"__proto__": {"type": "number", "minimum": 0}, "name": {"type": "string"}}, "required": ["__proto__"], "additionalProperties": false}',
  );

  it('is validated like any other property: a wrong type or value is refused, naming the key', () => {
    for (const [text, problem] of [
      ['{"__proto__": "foo"}', 'expected number'],
      ['{"__proto__": -1}', 'must be >= 0'],
      ['{"name": "x"}', 'missing required property'],
    ] as const) {
      const result = validateToolArguments(jsonTool(typed), text);
      expect(result.ok, text).toBe(false);
      expect(result.ok ? '' : result.message, text).toContain('__proto__');
      expect(result.ok ? '' : result.message, text).toContain(problem);
    }
  });

  it('is kept as data when valid, with additionalProperties: false, and sets no prototype', () => {
    const result = validateToolArguments(jsonTool(typed), '{"__proto__": 3, "name": "x"}');
    expect(result.ok).toBe(true);
    const params = (result as { params: Record<string, unknown> }).params;
    expect(Object.getOwnPropertyDescriptor(params, '__proto__')?.value).toBe(3);
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect(validateToolArguments(jsonTool(typed), '{"__proto__": 3, "other": 1}').ok).toBe(false);
  });

  it('is validated wherever a subschema declares it: nested objects, array items, $defs, anyOf', () => {
    const nested = schemaOf(
      '{"type": "object", "properties": {"meta": {"$ref": "#/$defs/Meta"}, "list": {"type": "array", "items": {"anyOf": [{"type": "object", "properties": {"__proto__": {"const": "ok"}}, "required": ["__proto__"]}, {"type": "null"}]}}},' +
        ' "$defs": {"Meta": {"type": "object", "properties": {"__proto__": {"type": "boolean"}}}}}',
    );
    expect(validateToolArguments(jsonTool(nested), '{"meta": {"__proto__": true}, "list": [{"__proto__": "ok"}, null]}').ok).toBe(true);
    expect(validateToolArguments(jsonTool(nested), '{"meta": {"__proto__": "yes"}}').ok).toBe(false);
    expect(validateToolArguments(jsonTool(nested), '{"list": [{"__proto__": "no"}]}').ok).toBe(false);
  });
});

describe('withProtoKeyRules', () => {
  it('adds a "^__proto__$" pattern carrying the declaration, joined to one already there, and changes nothing else', () => {
    const schema = schemaOf(
      '{"type": "object", "properties": {"__proto__": {"type": "number"}}, "patternProperties": {"^__proto__$": {"minimum": 1}, "^x": {}}, "const": {"properties": {"__proto__": 1}}}',
    );
    const before = JSON.stringify(schema);
    const rules = withProtoKeyRules(schema) as Record<string, Record<string, unknown>>;
    expect(rules['patternProperties']).toEqual({ '^__proto__$': { allOf: [{ minimum: 1 }, { type: 'number' }] }, '^x': {} });
    // Data keywords are not schemas: a "properties" inside `const` stays as it was.
    expect(JSON.stringify(rules['const'])).toBe('{"properties":{"__proto__":1}}');
    expect(Object.hasOwn(rules['properties']!, '__proto__')).toBe(true);
    expect(JSON.stringify(schema)).toBe(before);
  });

  it('returns the schema itself when no subschema declares "__proto__"', () => {
    const schema = schemaOf('{"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object", "properties": {"b": {}}}}}}');
    expect(withProtoKeyRules(schema)).toBe(schema);
    expect(findProtoKeyProperties(schema)).toEqual([]);
  });

  it('names every subschema that declares it', () => {
    expect(findProtoKeyProperties(schemaOf('{"properties": {"__proto__": {}, "a": {"items": {"properties": {"__proto__": {}}}}}}'))).toEqual([
      '$',
      '$.properties.a.items',
    ]);
  });
});

describe('a Zod schema declaring "__proto__"', () => {
  it('is refused when the tool is defined, saying why and what to do (Zod would drop the key)', () => {
    const define = (schema: z.ZodObject) => () =>
      defineWorkerTool({ name: 'zod_proto', description: 'd', schema, describeActivity: () => 'x', execute: async () => ({ content: 'ok' }) });
    expect(define(z.object({ ['__proto__']: z.number() }))).toThrow(
      expect.objectContaining({
        code: 'tool_schema_invalid',
        message: expect.stringContaining('declares a property named "__proto__" at its root: Zod drops that key') as unknown,
      }),
    );
    expect(define(z.object({ meta: z.object({ ['__proto__']: z.string() }) }))).toThrow(
      expect.objectContaining({ path: '$.properties.meta.properties.__proto__' }),
    );
    expect(define(z.object({ proto: z.string() }))).not.toThrow();
  });
});
