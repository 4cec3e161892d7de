import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import { StrictSchemaError, ToolDefinitionError } from '../errors.js';
import type { JSONObject } from '../json.js';
import { toolParameters } from './tool-parameters.js';
import { zodToJSONSchema } from './zod-to-json-schema.js';

const base = { description: 'Test tool.', describeActivity: () => 'testing', execute: () => ({ content: 'ok' }) };

function definitionError(run: () => unknown): ToolDefinitionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return error as ToolDefinitionError;
  }
  throw new Error('expected a ToolDefinitionError');
}

describe('toolParameters', () => {
  it('sends a non-strict Zod tool its converted schema with strict: false', () => {
    const schema = z.object({ path: z.string(), limit: z.number().optional() });
    const tool = defineWorkerTool({ ...base, name: 'read_file', schema });
    expect(toolParameters(tool)).toStrictEqual({ parameters: zodToJSONSchema(schema), strict: false });
  });

  it('sends a strict Zod tool the strict schema and keeps the original for null stripping', () => {
    const schema = z.object({ path: z.string(), limit: z.number().optional() });
    const result = toolParameters(defineWorkerTool({ ...base, name: 'read_file', schema, strict: true }));
    expect(result.strict).toBe(true);
    expect(result.parameters).toStrictEqual({
      type: 'object',
      properties: { path: { type: 'string' }, limit: { type: ['number', 'null'] } },
      required: ['path', 'limit'],
      additionalProperties: false,
    });
    expect(result.original).toBe(zodToJSONSchema(schema));
  });

  it('sends a jsonSchema tool its schema unchanged: the same object, same keys in the same order', () => {
    const jsonSchema: JSONObject = {
      type: 'object',
      required: ['query'],
      properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'integer', maximum: 50, minimum: 1, default: 10 } },
      $comment: 'from an MCP server',
    };
    const snapshot = JSON.stringify(jsonSchema);
    const result = toolParameters(defineWorkerTool({ ...base, name: 'search', jsonSchema }));
    expect(result.parameters).toBe(jsonSchema);
    expect(JSON.stringify(result.parameters)).toBe(snapshot);
    expect(result.strict).toBe(false);
    expect(result.original).toBeUndefined();
  });

  it('sends a strict jsonSchema tool unchanged with strict: true when it is already strict', () => {
    const jsonSchema: JSONObject = {
      type: 'object',
      properties: { answer: { type: 'string' }, confidence: { type: ['number', 'null'] } },
      required: ['answer', 'confidence'],
      additionalProperties: false,
    };
    const result = toolParameters(defineWorkerTool({ ...base, name: 'submit_result', jsonSchema, strict: true }));
    expect(result).toStrictEqual({ parameters: jsonSchema, strict: true });
    expect(result.parameters).toBe(jsonSchema);
  });

  it('refuses a strict jsonSchema tool whose schema is not strict, at definition time, with the path', () => {
    const jsonSchema: JSONObject = {
      type: 'object',
      properties: { result: { type: 'object', properties: { score: { type: 'number' } }, required: ['score'] } },
      required: ['result'],
      additionalProperties: false,
    };
    const error = definitionError(() => defineWorkerTool({ ...base, name: 'submit_result', jsonSchema, strict: true }));
    expect(error).toMatchObject({ code: 'tool_schema_not_strict', toolName: 'submit_result', path: '$.properties.result' });
    expect(error.message).toContain('Tool "submit_result" at $.properties.result');
    expect(error.cause).toBeInstanceOf(StrictSchemaError);
  });

  it('refuses a jsonSchema whose root is not an object', () => {
    const error = definitionError(() => defineWorkerTool({ ...base, name: 'bad', jsonSchema: { type: 'string' } }));
    expect(error).toMatchObject({ code: 'tool_schema_invalid', toolName: 'bad', path: '$' });
    expect(error.message).toContain('jsonSchema must be an object schema');
  });

  it('refuses a Zod schema whose root is not an object', () => {
    const error = definitionError(() => defineWorkerTool({ ...base, name: 'bad', schema: z.array(z.string()) }));
    expect(error).toMatchObject({ code: 'tool_schema_invalid', toolName: 'bad' });
    expect(error.message).toContain('root object schema');
  });

  it('refuses a Zod schema that cannot be converted', () => {
    const error = definitionError(() => defineWorkerTool({ ...base, name: 'bad', schema: z.object({ when: z.date() }) }));
    expect(error.message).toContain('Tool "bad" at $: The Zod schema cannot be converted');
  });

  it('refuses a strict Zod tool strict mode cannot express, naming the tool and the JSON path', () => {
    const schema = z.object({ tags: z.array(z.object({ labels: z.record(z.string(), z.string()) })) });
    const error = definitionError(() => defineWorkerTool({ ...base, name: 'tagger', schema, strict: true }));
    expect(error).toMatchObject({ code: 'tool_schema_not_strict', toolName: 'tagger', path: '$.properties.tags.items.properties.labels' });
    expect(error.message).toMatch(/^Tool "tagger" at \$\.properties\.tags\.items\.properties\.labels: strict: true but an open record/);
  });

  it("names the other problems' paths too", () => {
    const error = definitionError(() => defineWorkerTool({ ...base, name: 'multi', strict: true, schema: z.object({ a: z.url(), b: z.unknown() }) }));
    expect(error.path).toBe('$.properties.a');
    expect(error.message).toContain('Also at $.properties.b (see cause.issues).');
  });

  it('accepts the same schema without strict', () => {
    const schema = z.object({ tags: z.array(z.object({ labels: z.record(z.string(), z.string()) })) });
    expect(() => defineWorkerTool({ ...base, name: 'tagger', schema })).not.toThrow();
  });

  it('is memoised per tool object and frozen', () => {
    const tool = defineWorkerTool({ ...base, name: 'read_file', schema: z.object({ a: z.string().optional() }), strict: true });
    const first = toolParameters(tool);
    expect(toolParameters(tool)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.parameters['properties'])).toBe(true);
  });
});
