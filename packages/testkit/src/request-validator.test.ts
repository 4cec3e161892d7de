import OpenAI from 'openai';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { openapiPath } from './__fixtures__/openapi-path.js';
import { createRequestValidator, instancePathToParam, reply, startTestModelServer, TestkitError, type RequestValidator, type TestModelServer } from './index.js';

let validator: RequestValidator;
const servers: TestModelServer[] = [];

beforeAll(() => {
  validator = createRequestValidator(openapiPath);
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(script = [reply.text('ok')]) {
  const server = await startTestModelServer({ script, requestValidator: validator });
  servers.push(server);
  return { server, client: new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 2, timeout: 10_000 }) };
}

/** A body shaped like what the runtime's gateway sends on a later turn. */
const realisticBody = {
  model: 'test-model',
  instructions: 'You are a worker.',
  store: false,
  stream: true,
  include: ['reasoning.encrypted_content'],
  parallel_tool_calls: true,
  tools: [
    { type: 'function', name: 'read_file', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false }, strict: true },
    {
      type: 'namespace',
      name: 'calendar',
      description: 'Calendar tools.',
      tools: [{ type: 'function', name: 'list_events', description: 'List events.', parameters: { type: 'object', properties: {} }, strict: false, defer_loading: true }],
    },
    { type: 'tool_search' },
  ],
  input: [
    { role: 'user', content: 'Read a.txt and check my calendar.' },
    { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Plan.' }], encrypted_content: 'opaque' },
    { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'On it.', annotations: [], logprobs: [] }] },
    { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}', status: 'completed' },
    { type: 'function_call', id: 'fc_2', call_id: 'call_2', namespace: 'calendar', name: 'list_events', arguments: '{}', status: 'completed' },
    { type: 'function_call_output', call_id: 'call_1', output: 'hello' },
    { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'no events' }] },
    { type: 'tool_search_call', call_id: 'call_3', execution: 'client', arguments: { query: 'calendar' }, status: 'completed' },
    {
      type: 'tool_search_output',
      call_id: 'call_3',
      execution: 'client',
      tools: [{ type: 'function', name: 'list_events', description: 'List events.', parameters: { type: 'object', properties: {} }, strict: false }],
    },
  ],
};

describe('createRequestValidator', () => {
  test('accepts what our runtime sends: namespaces, deferred tools, tool search, echoed items, outputs', () => {
    expect(validator.validate(realisticBody)).toBeUndefined();
  });

  test('names the failing path, with the right branch of a union', () => {
    const missingOutput = { model: 'm', input: [{ type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'c1' }] };
    expect(validator.validate(missingOutput)?.error).toMatchObject({
      message: expect.stringContaining("Missing required parameter: 'input[1].output'."),
      type: 'invalid_request_error',
      param: 'input[1].output',
      code: 'missing_required_parameter',
    });
    expect(validator.validate({ model: 'm', input: 'x', temperature: 'hot' })?.error).toMatchObject({ param: 'temperature', code: 'invalid_type' });
    expect(validator.validate({ model: 'm', input: 'x', tools: [{ type: 'functio', name: 'f' }] })?.error).toMatchObject({ param: 'tools[0].type', code: 'invalid_value' });
  });

  test('refuses a top-level parameter CreateResponse does not declare, as the API does', () => {
    expect(validator.validate({ model: 'm', input: 'x', temprature: 0.2 })).toEqual({
      error: { message: "Unknown parameter: 'temprature'.", type: 'invalid_request_error', param: 'temprature', code: 'unknown_parameter' },
    });
    expect(validator.validate({ model: 'm', input: 'x', temperature: 0.2, reasoning: { effort: 'low' }, prompt_cache_key: 'k' })).toBeUndefined();
  });

  test('refuses a missing file with a TestkitError', () => {
    expect(() => createRequestValidator('/nonexistent/openapi.json')).toThrow(TestkitError);
  });

  test('turns JSON pointers into API params', () => {
    expect(instancePathToParam('/input/0/content/1', 'text')).toBe('input[0].content[1].text');
  });
});

describe('servers with a request validator', () => {
  test('a conforming streamed request gets its scripted reply', async () => {
    const { server } = await start();
    const response = await fetch(`${server.baseURL}/responses`, { method: 'POST', body: JSON.stringify(realisticBody) });
    expect(response.status).toBe(200);
    expect(server.remaining).toBe(0);
  });

  test('a non-conforming body is a 400 BadRequestError from the SDK, not retried, no step used', async () => {
    const { server, client } = await start();
    const error = await client.responses
      .create({ model: 'test-model', input: [{ role: 'user', content: 42 as unknown as string }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'input[0].content', code: 'invalid_type', type: 'invalid_request_error' });
    expect(server.requests).toHaveLength(1);
    expect(server.remaining).toBe(1);
  });

  test('openapiPath compiles a validator for one server', async () => {
    const server = await startTestModelServer({ openapiPath, script: [reply.text('ok')] });
    servers.push(server);
    const response = await fetch(`${server.baseURL}/responses`, { method: 'POST', body: JSON.stringify({ model: 'm', input: 'x', top_p: 'high' }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { param: 'top_p' } });
  });
});
