import { describe, expect, it } from 'vitest';
import {
  AnkoleError,
  ModelGatewayError,
  RuntimeFailure,
  SchemaConversionError,
  StrictSchemaError,
  ToolAbortedError,
  ToolDefinitionError,
  ToolSetError,
  ToolTimeoutError,
  UsageError,
} from './errors.js';

describe('errors', () => {
  it('share one base class with a stable code, and tell usage mistakes from runtime failures', () => {
    const usage = [
      new ToolDefinitionError('read_file', 'description must be a non-empty string.'),
      new ToolSetError('Duplicate tools: a.', ['a']),
      new SchemaConversionError('The root is not an object.', { reason: 'root_not_object' }),
      new StrictSchemaError([{ path: '$.properties.a', message: 'allOf is not supported.' }]),
    ];
    const runtime = [
      new ModelGatewayError('The model endpoint failed.', { status: 503, code: 'model_server_error' }),
      new ToolTimeoutError('read_file', 50),
      new ToolAbortedError('read_file'),
    ];
    for (const error of usage) {
      expect(error).toBeInstanceOf(AnkoleError);
      expect(error).toBeInstanceOf(UsageError);
      expect(error).not.toBeInstanceOf(RuntimeFailure);
      expect(error.kind).toBe('usage');
    }
    for (const error of runtime) {
      expect(error).toBeInstanceOf(AnkoleError);
      expect(error).toBeInstanceOf(RuntimeFailure);
      expect(error).not.toBeInstanceOf(UsageError);
      expect(error.kind).toBe('runtime');
    }
    expect([...usage, ...runtime].map((error) => [error.name, error.code])).toEqual([
      ['ToolDefinitionError', 'tool_definition_invalid'],
      ['ToolSetError', 'tool_set_invalid'],
      ['SchemaConversionError', 'schema_conversion_failed'],
      ['StrictSchemaError', 'strict_schema_unsupported'],
      ['ModelGatewayError', 'model_server_error'],
      ['ToolTimeoutError', 'tool_timeout'],
      ['ToolAbortedError', 'tool_aborted'],
    ]);
  });

  it('name the tool and the JSON path, and keep the cause', () => {
    const cause = new Error('zod said no');
    const error = new ToolDefinitionError('tagger', 'strict: true but an open record is not supported.', {
      path: '$.properties.tags',
      code: 'tool_schema_not_strict',
      cause,
    });
    expect(error.message).toBe('Tool "tagger" at $.properties.tags: strict: true but an open record is not supported.');
    expect(error).toMatchObject({ toolName: 'tagger', path: '$.properties.tags', code: 'tool_schema_not_strict' });
    expect(error.cause).toBe(cause);
    const strict = new StrictSchemaError([
      { path: '$.a', message: 'allOf is not supported.' },
      { path: '$.b', message: 'not is not supported.' },
    ]);
    expect(strict.message).toBe('Strict mode cannot express the schema at $.a: allOf is not supported. (and 1 more problem)');
  });
});
