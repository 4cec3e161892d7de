import OpenAI from 'openai';
import { afterEach, describe, expect, test } from 'vitest';
import { checkStrictFunctionTools } from './check-strict-function-tools.js';
import { reply, startTestModelServer, type TestModelServer } from './index.js';

const servers: TestModelServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const closed = (properties: Record<string, unknown>) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false });
const strictTool = (name: string, parameters: unknown) => ({ type: 'function', name, description: 'd', parameters, strict: true });

describe('checkStrictFunctionTools', () => {
  test('accepts strict schemas: closed objects, every property required, optional ones nullable, recursion through $defs', () => {
    const parameters = {
      ...closed({
        path: { type: 'string' },
        limit: { type: ['integer', 'null'] },
        filter: { anyOf: [closed({ tag: { type: 'string' } }), { type: 'null' }] },
        items: { type: 'array', items: closed({ name: { type: 'string' } }) },
        tree: { $ref: '#/$defs/node' },
      }),
      $defs: { node: closed({ children: { type: 'array', items: { $ref: '#/$defs/node' } } }) },
    };
    expect(checkStrictFunctionTools({ tools: [strictTool('read', parameters)] })).toBeUndefined();
  });

  test('refuses what strict mode cannot take, wording and param like the API', () => {
    const open = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(checkStrictFunctionTools({ tools: [strictTool('read', open)] })).toEqual({
      error: {
        message: "Invalid schema for function 'read': In context=(), 'additionalProperties' is required to be supplied and to be false.",
        type: 'invalid_request_error',
        param: 'tools[0].parameters',
        code: 'invalid_function_parameters',
      },
    });
    const optional = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a'], additionalProperties: false };
    expect(checkStrictFunctionTools({ tools: [strictTool('read', optional)] })?.error.message).toBe(
      "Invalid schema for function 'read': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'b'.",
    );
    const nested = closed({ items: { type: 'array', items: { type: 'object', properties: {}, additionalProperties: true } } });
    expect(checkStrictFunctionTools({ tools: [strictTool('read', nested)] })?.error.message).toContain("In context=('properties', 'items', 'items'), 'additionalProperties'");
    const allOf = closed({ a: { allOf: [{ type: 'string' }] } });
    expect(checkStrictFunctionTools({ tools: [strictTool('read', allOf)] })?.error.message).toContain("In context=('properties', 'a'), 'allOf' is not permitted.");
    expect(checkStrictFunctionTools({ tools: [strictTool('read', { anyOf: [closed({})] })] })?.error.message).toContain(`schema must be a JSON Schema of 'type: "object"'`);
  });

  test('checks namespace members and tools loaded by a tool_search_output; leaves non-strict tools alone', () => {
    const open = { type: 'object', properties: { a: { type: 'string' } } };
    expect(checkStrictFunctionTools({ tools: [{ ...strictTool('read', open), strict: false }] })).toBeUndefined();
    expect(checkStrictFunctionTools({ tools: [{ type: 'namespace', name: 'ns', description: 'd', tools: [strictTool('read', open)] }] })?.error.param).toBe(
      'tools[0].tools[0].parameters',
    );
    const loaded = { type: 'tool_search_output', call_id: 'c', execution: 'client', tools: [{ type: 'namespace', name: 'ns', description: 'd', tools: [strictTool('read', open)] }] };
    expect(checkStrictFunctionTools({ input: ['x', loaded] })?.error.param).toBe('input[1].tools[0].parameters');
  });
});

describe('through the SDK', () => {
  test('a strict tool with an open object is a 400 invalid_function_parameters, not retried, no step used', async () => {
    const server = await startTestModelServer({ script: [reply.text('never')] });
    servers.push(server);
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 2, timeout: 10_000 });
    const error = await client.responses
      .create({ model: 'test-model', input: 'x', tools: [strictTool('read', { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }) as OpenAI.Responses.FunctionTool] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_function_parameters', param: 'tools[0].parameters' });
    expect(server.requests).toHaveLength(1);
    expect(server.remaining).toBe(1);
  });
});
