import OpenAI from 'openai';
import { afterEach, describe, expect, test } from 'vitest';
import { postAndReadSse } from './__fixtures__/read-sse.js';
import { functionCallOutputs, lastUserText, reply, startTestModelServer, type TestModelServer } from './index.js';

const servers: TestModelServer[] = [];

async function start(options: Parameters<typeof startTestModelServer>[0]) {
  const server = await startTestModelServer(options);
  servers.push(server);
  return { server, client: new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 10_000 }) };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('JSON replies', () => {
  test('a text reply parses as a Response with output_text and usage', async () => {
    const { client } = await start({ script: [reply.text('Hello from the testkit', { usage: { inputTokens: 7, outputTokens: 3 } })] });
    const response = await client.responses.create({ model: 'test-model', input: 'hi' });
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'test-model',
      output_text: 'Hello from the testkit',
      usage: { input_tokens: 7, output_tokens: 3, total_tokens: 10 },
    });
    expect(response.id).toMatch(/^resp_/);
    expect(response.output[0]?.id).toMatch(/^msg_/);
  });

  test('function calls carry name, namespace, verbatim or encoded arguments and generated ids', async () => {
    const { client } = await start({
      script: [
        reply.functionCalls([
          { name: 'read_file', namespace: 'files', arguments: { path: 'a.txt' } },
          { name: 'broken', arguments: '{"path": "b.txt"', callId: 'call_fixed' },
        ]),
      ],
    });
    const response = await client.responses.create({ model: 'test-model', input: 'read' });
    const calls = response.output.filter((item) => item.type === 'function_call');
    expect(calls).toMatchObject([
      { name: 'read_file', namespace: 'files', arguments: '{"path":"a.txt"}', status: 'completed' },
      { name: 'broken', arguments: '{"path": "b.txt"', call_id: 'call_fixed' },
    ]);
    expect(calls[0]?.id).toMatch(/^fc_/);
    expect(calls[0]?.call_id).toMatch(/^call_/);
  });

  test('a tool_search_call is a client-executed item with its query', async () => {
    const { client } = await start({ script: [reply.toolSearchCall({ arguments: { query: 'calendar' } })] });
    const response = await client.responses.create({ model: 'test-model', input: 'find tools' });
    expect(response.output[0]).toMatchObject({ type: 'tool_search_call', execution: 'client', arguments: { query: 'calendar' }, status: 'completed' });
    expect((response.output[0] as { call_id?: string }).call_id).toMatch(/^call_/);
  });

  test('a step function sees the recorded request and its step index', async () => {
    const seen: number[] = [];
    const { client } = await start({
      script: [
        (request, context) => {
          seen.push(context.index);
          return reply.text(`echo: ${lastUserText(request)}`);
        },
      ],
    });
    const response = await client.responses.create({ model: 'test-model', input: [{ role: 'user', content: 'ping' }] });
    expect(response.output_text).toBe('echo: ping');
    expect(seen).toEqual([0]);
  });
});

describe('request checks', () => {
  const post = (server: TestModelServer, body: unknown) =>
    fetch(`${server.baseURL}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  test("a body outside the testkit's description of the request is refused, unless checkRequestSchema is false", async () => {
    const body = { model: 'test-model', input: 'hi', not_a_parameter: 1 };
    const { server: checking } = await start({ script: [reply.text('unused')] });
    const refused = await post(checking, body);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('not_a_parameter');

    const { server: lenient } = await start({ script: [reply.text('accepted')], checkRequestSchema: false });
    const accepted = await post(lenient, body);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ status: 'completed', output: [{ type: 'message', content: [{ text: 'accepted' }] }] });
  });

  test('with checkRequestSchema false the semantic checks still apply', async () => {
    const { server } = await start({ script: [reply.text('unused')], checkRequestSchema: false });
    const refused = await post(server, { model: 'test-model', input: [{ type: 'function_call_output', call_id: 'call_nowhere', output: 'x' }] });
    expect(refused.status).toBe(400);
    expect(server.remaining).toBe(1);
  });
});

describe('streaming replies', () => {
  test('the SDK accumulates text, reasoning and function calls from the stream', async () => {
    const { client } = await start({
      script: [reply.functionCalls([{ name: 'lookup', namespace: 'crm', arguments: { id: 42 } }], { text: 'Looking it up.', reasoning: 'Need the record.' })],
    });
    const stream = client.responses.stream({ model: 'test-model', input: 'who is 42?' });
    const textDeltas: string[] = [];
    stream.on('response.output_text.delta', (event) => textDeltas.push(event.delta));
    const response = await stream.finalResponse();
    expect(textDeltas.join('')).toBe('Looking it up.');
    expect(textDeltas.length).toBeGreaterThan(1);
    expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call']);
    expect(response.output[2]).toMatchObject({ name: 'lookup', namespace: 'crm', arguments: '{"id":42}' });
  });

  test('the events come in the API order with increasing sequence numbers and event names', async () => {
    const { server } = await start({ script: [reply.functionCalls([{ name: 'f', arguments: { a: 1 } }], { text: 'hi' })] });
    const events = await postAndReadSse(server.baseURL, { model: 'test-model', input: 'x', stream: true });
    expect(events.map((event) => event.data.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.every((event) => event.event === event.data.type)).toBe(true);
    expect(events.map((event) => event.data.sequence_number)).toEqual(events.map((_, index) => index));
  });

  test('a streamed tool_search_call reaches the SDK', async () => {
    const { client } = await start({ script: [reply.toolSearchCall({ arguments: { query: 'mail' }, callId: 'call_search' })] });
    const response = await client.responses.stream({ model: 'test-model', input: 'x' }).finalResponse();
    expect(response.output[0]).toMatchObject({ type: 'tool_search_call', call_id: 'call_search', arguments: { query: 'mail' } });
  });
});

describe('request recording', () => {
  test('records every request in order with path, headers and parsed body', async () => {
    const { server, client } = await start({ script: [reply.functionCalls([{ name: 'f', arguments: {}, callId: 'call_1' }]), reply.text('done')] });
    await client.responses.create({ model: 'test-model', input: 'first' });
    await client.responses.create({
      model: 'test-model',
      input: [
        { role: 'user', content: 'first' },
        { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'result' },
      ],
    });
    expect(server.requests.map((request) => [request.index, request.method, request.path])).toEqual([
      [0, 'POST', '/v1/responses'],
      [1, 'POST', '/v1/responses'],
    ]);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer test');
    expect(server.requests[0]?.body).toMatchObject({ model: 'test-model', input: 'first' });
    expect(functionCallOutputs(server.requests[1]!)).toEqual([{ type: 'function_call_output', call_id: 'call_1', output: 'result' }]);
    expect(server.remaining).toBe(0);
  });

  test('rejected requests are recorded too, and do not consume a step', async () => {
    const { server } = await start({ script: [reply.text('kept')] });
    const notJson = await fetch(`${server.baseURL}/responses`, { method: 'POST', body: '{oops', headers: { 'content-type': 'application/json' } });
    const unknownPath = await fetch(`${server.baseURL}/chat/completions`, { method: 'POST', body: '{}' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    expect(unknownPath.status).toBe(404);
    expect(await unknownPath.json()).toMatchObject({ error: { message: 'Invalid URL (POST /v1/chat/completions)' } });
    expect(server.requests.map((request) => request.rawBody)).toEqual(['{oops', '{}']);
    expect(server.requests[0]?.body).toBeUndefined();
    expect(server.remaining).toBe(1);
  });
});

describe('script exhaustion', () => {
  test('answers 400 naming the step count, without SDK retries', async () => {
    const { server } = await startTestModelServer({ script: [reply.text('only one')] }).then((started) => {
      servers.push(started);
      return { server: started };
    });
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 2 });
    await client.responses.create({ model: 'test-model', input: 'a' });
    const error = await client.responses.create({ model: 'test-model', input: 'b' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('testkit script exhausted after 1 steps');
    expect(server.requests).toHaveLength(2);
  });

  test('onExhausted can be a step served for every further request', async () => {
    const { client } = await start({ script: [], onExhausted: reply.text('again') });
    const first = await client.responses.create({ model: 'test-model', input: 'a' });
    const second = await client.responses.create({ model: 'test-model', input: 'b' });
    expect([first.output_text, second.output_text]).toEqual(['again', 'again']);
    expect(first.output[0]?.id).not.toBe(second.output[0]?.id);
  });
});

describe('close', () => {
  test('closes while a slow stream is still open and never hangs', async () => {
    const server = await startTestModelServer({ script: [reply.slow(reply.text('a b c d e f'), { delayMs: 5_000 })] });
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
    const pending = client.responses.create({ model: 'test-model', input: 'x', stream: true }).then(
      async (stream) => {
        for await (const _event of stream) {
          // drain
        }
      },
    );
    await expect.poll(() => server.requests.length).toBe(1);
    await server.close();
    await expect(pending).rejects.toThrow();
  });
});

describe('more replies', () => {
  test('raw items get ids and statuses; streamed usage reaches the SDK', async () => {
    const { client } = await start({
      script: [
        reply.items(
          [
            { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'raw', annotations: [], logprobs: [] }] },
            { type: 'function_call', name: 'f', arguments: '{}', call_id: 'call_raw' },
          ],
          { usage: { inputTokens: 11, outputTokens: 5, cachedTokens: 4, reasoningTokens: 2 } },
        ),
      ],
    });
    const response = await client.responses.stream({ model: 'test-model', input: 'x' }).finalResponse();
    expect(response.output).toMatchObject([
      { type: 'message', id: expect.stringMatching(/^msg_/), status: 'completed' },
      { type: 'function_call', id: expect.stringMatching(/^fc_/), call_id: 'call_raw', status: 'completed' },
    ]);
    expect(response.usage).toEqual({
      input_tokens: 11,
      input_tokens_details: { cached_tokens: 4, cache_write_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 2 },
      total_tokens: 16,
    });
  });

  test('an error event in a JSON request is a 500 the SDK does not retry', async () => {
    const server = await startTestModelServer({ script: [reply.errorEvent('broken'), reply.text('never')] });
    servers.push(server);
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 2 });
    const error = await client.responses.create({ model: 'test-model', input: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect(server.requests).toHaveLength(1);
  });

  test('a step function runs after its request is recorded', async () => {
    let seenCount = -1;
    const { server, client } = await start({
      script: [
        () => {
          seenCount = server.requests.length;
          return reply.text('ok');
        },
      ],
    });
    await client.responses.create({ model: 'test-model', input: 'x' });
    expect(seenCount).toBe(1);
  });

  test('a step function that throws answers 500 with its message, not retried', async () => {
    const server = await startTestModelServer({
      script: [
        () => {
          throw new Error('bad fixture');
        },
      ],
    });
    servers.push(server);
    const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 2 });
    const error = await client.responses.create({ model: 'test-model', input: 'x' }).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain('testkit script step 0 threw: bad fixture');
    expect(server.requests).toHaveLength(1);
  });
});

describe('isolation', () => {
  test('two servers keep their own scripts and recordings', async () => {
    const { server: first, client: firstClient } = await start({ script: [reply.text('one')] });
    const { server: second, client: secondClient } = await start({ script: [reply.text('two')] });
    expect(first.baseURL).not.toBe(second.baseURL);
    expect(first.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const [a, b] = await Promise.all([
      firstClient.responses.create({ model: 'test-model', input: 'x' }),
      secondClient.responses.create({ model: 'test-model', input: 'y' }),
    ]);
    expect([a.output_text, b.output_text]).toEqual(['one', 'two']);
    expect([first.requests.length, second.requests.length]).toEqual([1, 1]);
  });

  test('close is idempotent and the port stops answering', async () => {
    const server = await startTestModelServer({ script: [] });
    await Promise.all([server.close(), server.close()]);
    await expect(fetch(`${server.baseURL}/responses`, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});
