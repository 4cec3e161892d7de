import OpenAI from 'openai';
import { afterEach, describe, expect, test } from 'vitest';
import { checkRequestSemantics, reply, startTestModelServer, type TestModelServer } from './index.js';

const servers: TestModelServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const call = (callId: string) => ({ type: 'function_call', call_id: callId, name: 'f', arguments: '{}' });
const output = (callId: string) => ({ type: 'function_call_output', call_id: callId, output: 'ok' });

describe('checkRequestSemantics', () => {
  test('a function_call without a later output is refused like the API does', () => {
    expect(checkRequestSemantics({ model: 'm', input: [call('call_a'), output('call_a'), call('call_b')] })).toEqual({
      error: { message: 'No tool output found for function call call_b.', type: 'invalid_request_error', param: 'input', code: null },
    });
    expect(checkRequestSemantics({ model: 'm', input: [output('call_a'), call('call_a')] })?.error.message).toBe(
      'No tool output found for function call call_a.',
    );
  });

  test('a body without a model is refused like the API does', () => {
    expect(checkRequestSemantics({ input: 'x' })).toEqual({
      error: { message: "Missing required parameter: 'model'.", type: 'invalid_request_error', param: 'model', code: 'missing_required_parameter' },
    });
  });

  test('answered calls pass', () => {
    expect(checkRequestSemantics({ model: 'm', input: [call('call_a'), call('call_b'), output('call_b'), output('call_a')] })).toBeUndefined();
  });

  test('a client tool_search_call needs its tool_search_output; a server one does not', () => {
    const search = (execution: string) => ({ type: 'tool_search_call', call_id: 'call_s', execution, arguments: { query: 'q' } });
    expect(checkRequestSemantics({ model: 'm', input: [search('client')] })?.error.message).toBe('No tool output found for tool search call call_s.');
    expect(checkRequestSemantics({ model: 'm', input: [search('server')] })).toBeUndefined();
    expect(
      checkRequestSemantics({ model: 'm', input: [search('client'), { type: 'tool_search_output', call_id: 'call_s', execution: 'client', tools: [] }] }),
    ).toBeUndefined();
  });

  test('an output for an unknown call is refused unless previous_response_id continues a stored response', () => {
    expect(checkRequestSemantics({ model: 'm', input: [output('call_x')] })?.error.message).toBe(
      'No tool call found for function call output with call_id call_x.',
    );
    expect(checkRequestSemantics({ model: 'm', previous_response_id: 'resp_1', input: [output('call_x')] })).toBeUndefined();
  });

  test('duplicate tool names are refused, top level and inside a namespace', () => {
    const tool = (name: string) => ({ type: 'function', name, parameters: { type: 'object' } });
    expect(checkRequestSemantics({ model: 'm', input: 'x', tools: [tool('a'), tool('a')] })?.error).toMatchObject({ param: 'tools[1].name' });
    expect(
      checkRequestSemantics({ model: 'm', input: 'x', tools: [{ type: 'namespace', name: 'ns', description: 'd', tools: [tool('a'), tool('a')] }, tool('a')] })?.error,
    ).toMatchObject({ param: 'tools[0].tools[1].name' });
    expect(checkRequestSemantics({ model: 'm', input: 'x', tools: [{ type: 'namespace', name: 'ns', description: 'd', tools: [tool('a')] }, tool('a')] })).toBeUndefined();
  });
});

describe('through the SDK', () => {
  test('a missing tool output is a 400 with the API message, and consumes no step', async () => {
    const server = await startTestModelServer({ script: [reply.text('never')] });
    servers.push(server);
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 2, timeout: 10_000 });
    const error = await client.responses
      .create({ model: 'test-model', input: [{ role: 'user', content: 'x' }, { type: 'function_call', call_id: 'call_9', name: 'f', arguments: '{}' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('No tool output found for function call call_9.');
    expect(server.requests).toHaveLength(1);
    expect(server.remaining).toBe(1);
  });
});
