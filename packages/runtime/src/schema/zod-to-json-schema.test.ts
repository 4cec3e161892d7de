import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SchemaConversionError } from '../errors.js';
import { zodToJSONSchema } from './zod-to-json-schema.js';

describe('zodToJSONSchema', () => {
  it('converts an object schema without the $schema key', () => {
    const schema = z.object({ path: z.string().describe('File path'), limit: z.number().int().min(1).optional() });
    expect(zodToJSONSchema(schema)).toStrictEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path' },
        limit: { type: 'integer', minimum: 1, maximum: 9007199254740991 },
      },
      required: ['path'],
    });
  });

  it('describes the input side: defaulted fields are optional and transforms show what they accept', () => {
    const schema = z.object({
      mode: z.enum(['fast', 'slow']).default('fast'),
      size: z.string().transform((text) => Number(text)),
    });
    const converted = zodToJSONSchema(schema);
    expect(converted['required']).toStrictEqual(['size']);
    expect(converted['properties']).toStrictEqual({
      mode: { default: 'fast', type: 'string', enum: ['fast', 'slow'] },
      size: { type: 'string' },
    });
  });

  it('returns the same frozen object for the same schema object', () => {
    const schema = z.object({ a: z.string() });
    const first = zodToJSONSchema(schema);
    expect(zodToJSONSchema(schema)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first['properties'])).toBe(true);
    expect(zodToJSONSchema(z.object({ a: z.string() }))).not.toBe(first);
  });

  it('refuses a root that is not an object with a typed error', () => {
    const error = captureError(() => zodToJSONSchema(z.string()));
    expect(error).toBeInstanceOf(SchemaConversionError);
    expect(error).toMatchObject({ code: 'schema_conversion_failed', reason: 'root_not_object', kind: 'usage' });
    expect((error as Error).message).toContain('root object schema');
  });

  it('refuses a union at the root', () => {
    const schema = z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]);
    expect(captureError(() => zodToJSONSchema(schema))).toMatchObject({ reason: 'root_not_object' });
  });

  it('wraps unrepresentable types in a SchemaConversionError with the Zod error as cause', () => {
    const error = captureError(() => zodToJSONSchema(z.object({ when: z.date() })));
    expect(error).toBeInstanceOf(SchemaConversionError);
    expect(error).toMatchObject({ code: 'schema_conversion_failed', reason: 'unrepresentable' });
    expect((error as Error).message).toContain('Date cannot be represented');
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('puts a root schema that has a metadata id at the root (not a $ref)', () => {
    const Args = z.object({ query: z.string() }).meta({ id: 'SearchArgs', description: 'Search arguments.' });
    const converted = zodToJSONSchema(Args);
    expect(converted).toMatchObject({ type: 'object', description: 'Search arguments.', properties: { query: { type: 'string' } }, required: ['query'] });
    expect(converted).not.toHaveProperty('$ref');
  });

  it('converts recursive schemas with $defs and $ref', () => {
    const Node: z.ZodType<{ name: string; children?: unknown[] }> = z.object({
      name: z.string(),
      get children() {
        return z.array(Node).optional();
      },
    });
    const converted = zodToJSONSchema(z.object({ root: Node }));
    expect(converted['properties']).toStrictEqual({ root: { $ref: '#/$defs/__schema0' } });
    expect(converted['$defs']).toBeDefined();
  });
});

function captureError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
