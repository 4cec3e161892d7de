import OpenAI from 'openai';
import { afterEach, describe, expect, test } from 'vitest';
import { contextLengthExceeded, reply, startTestModelServer, type TestModelServerOptions, type TestModelServer } from './index.js';

const servers: TestModelServer[] = [];

async function start(options: TestModelServerOptions) {
  const server = await startTestModelServer(options);
  servers.push(server);
  return { server, client: new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 10_000 }) };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const big = (kilobytes: number) => 'x'.repeat(kilobytes * 1024);

describe('contextWindow', () => {
  test('a request over the window gets the API 400 context_length_exceeded and consumes no step', async () => {
    const { server, client } = await start({ contextWindow: 1_000, script: [reply.text('ok')] });
    const error = await client.responses.create({ model: 'm', input: big(8) }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).error).toEqual(contextLengthExceeded().error);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('context_length_exceeded');
    expect(server.remaining).toBe(1);
    const fits = await client.responses.create({ model: 'm', input: big(2) });
    expect(fits.output_text).toBe('ok');
  });

  test('usage.input_tokens is the request size / 4, and /responses/input_tokens counts the same', async () => {
    const { client } = await start({ contextWindow: 100_000, script: [reply.text('ok')] });
    const body = { model: 'm', instructions: 'Be brief.', input: [{ role: 'user' as const, content: big(4) }] };
    const counted = await client.responses.inputTokens.count(body);
    const response = await client.responses.create(body);
    expect(counted).toEqual({ object: 'response.input_tokens', input_tokens: response.usage?.input_tokens });
    expect(response.usage?.input_tokens).toBeGreaterThan(1024);
    expect(response.usage?.input_tokens).toBeLessThan(1100);
  });

  test('a previous_response_id chain counts the stored context it continues', async () => {
    const { client } = await start({ contextWindow: 3_000, script: [reply.text('first'), reply.text('second')] });
    const first = await client.responses.create({ model: 'm', input: big(10) });
    const second = await client.responses.create({ model: 'm', previous_response_id: first.id, input: big(2) }).catch((caught: unknown) => caught);
    const alone = await client.responses.create({ model: 'm', input: big(2) });
    expect(first.usage?.input_tokens).toBeLessThan(3_000);
    expect(second).toBeInstanceOf(OpenAI.BadRequestError);
    expect(alone.output_text).toBe('second');
  });
});

describe('POST /responses/compact', () => {
  test('answers the user messages then one opaque compaction item, which later requests accept', async () => {
    const { server, client } = await start({ contextWindow: 2_000, script: [reply.text('after compaction')] });
    const input: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'Read every file.' },
      { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a"}' },
      { type: 'function_call_output', call_id: 'call_1', output: big(12) },
    ];
    const compacted = await client.responses.compact({ model: 'm', input });
    expect(compacted.object).toBe('response.compaction');
    expect(compacted.output.map((item) => item.type)).toEqual(['message', 'compaction']);
    const compaction = compacted.output[1] as { type: string; id: string; encrypted_content: string };
    expect(compaction.id).toMatch(/^cmp_/);
    expect(compaction.encrypted_content).toMatch(/^gAAAAA/);
    expect(compacted.usage.input_tokens).toBeGreaterThan(3_000);
    const next = await client.responses.create({ model: 'm', input: [...(compacted.output as OpenAI.Responses.ResponseInputItem[]), { role: 'user', content: 'Go on.' }] });
    expect(next.output_text).toBe('after compaction');
    expect(next.usage?.input_tokens).toBeLessThan(200);
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/responses/compact', '/v1/responses']);
  });

  test('compacts the stored chain a previous_response_id names, and refuses an unknown one', async () => {
    const { client } = await start({ script: [reply.text('stored')] });
    const first = await client.responses.create({ model: 'm', input: big(6) });
    const compacted = await client.responses.compact({ model: 'm', previous_response_id: first.id, input: 'and this' });
    expect(compacted.usage.input_tokens).toBeGreaterThan(1_500);
    expect(compacted.output.at(-1)?.type).toBe('compaction');
    const unknown = await client.responses.compact({ model: 'm', previous_response_id: 'resp_missing' }).catch((caught: unknown) => caught);
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
  });

  test('refuses a function call without its output, as the create endpoint does', async () => {
    const { client } = await start({});
    const error = await client.responses
      .compact({ model: 'm', input: [{ type: 'function_call', call_id: 'call_9', name: 'f', arguments: '{}' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('No tool output found for function call call_9.');
  });

  test('compactEndpoint: false and inputTokensEndpoint: false answer 404 like a server without them', async () => {
    const { client } = await start({ compactEndpoint: false, inputTokensEndpoint: false });
    await expect(client.responses.compact({ model: 'm', input: 'x' })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(client.responses.inputTokens.count({ model: 'm', input: 'x' })).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe('context_management', () => {
  test('over compact_threshold the output starts with a compaction item, and the chain continues from it', async () => {
    const { client } = await start({ contextWindow: 3_000, script: [reply.text('one'), reply.text('two')] });
    const management = [{ type: 'compaction', compact_threshold: 1_000 }];
    const first = await client.responses.create({ model: 'm', input: big(8), context_management: management });
    expect(first.output.map((item) => item.type)).toEqual(['compaction', 'message']);
    expect(first.output_text).toBe('one');
    const second = await client.responses.create({ model: 'm', previous_response_id: first.id, input: big(4), context_management: management });
    expect(second.usage?.input_tokens).toBeLessThan(1_200);
  });
});
