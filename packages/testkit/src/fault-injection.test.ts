import OpenAI from 'openai';
import { afterEach, describe, expect, test } from 'vitest';
import { reply, startTestModelServer, type ScriptStep, type TestModelServer } from './index.js';

const servers: TestModelServer[] = [];

async function start(script: ScriptStep[], maxRetries = 0) {
  const server = await startTestModelServer({ script });
  servers.push(server);
  return { server, client: new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries, timeout: 10_000 }) };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function collectTypes(stream: AsyncIterable<{ type: string }>): Promise<{ types: string[]; error: unknown }> {
  const types: string[] = [];
  try {
    for await (const event of stream) types.push(event.type);
    return { types, error: undefined };
  } catch (error) {
    return { types, error };
  }
}

describe('HTTP errors and SDK retries', () => {
  test('the SDK retries a 429 after retry-after and gets the next step', async () => {
    const { server, client } = await start([reply.rateLimited({ retryAfterSeconds: 0.01 }), reply.text('ok')], 2);
    const response = await client.responses.create({ model: 'test-model', input: 'x' });
    expect(response.output_text).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });

  test('a 429 carries retry-after and the API error body', async () => {
    const { server } = await start([reply.rateLimited({ retryAfterSeconds: 3 })]);
    const response = await fetch(`${server.baseURL}/responses`, { method: 'POST', body: JSON.stringify({ model: 'm', input: 'x' }) });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    expect(await response.json()).toEqual({
      error: { message: expect.any(String), type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
  });

  test('the SDK retries 500 and 503, also while streaming', async () => {
    const { server, client } = await start(
      [reply.serverError(500, { retryAfterSeconds: 0.01 }), reply.serverError(503, { retryAfterSeconds: 0.01 }), reply.text('recovered')],
      2,
    );
    const response = await client.responses.stream({ model: 'test-model', input: 'x' }).finalResponse();
    expect(response.output_text).toBe('recovered');
    expect(server.requests).toHaveLength(3);
  });

  test('without retries left the SDK surfaces the 429 as RateLimitError', async () => {
    const { server, client } = await start([reply.rateLimited({ retryAfterSeconds: 0.01 }), reply.text('never')]);
    const error = await client.responses.create({ model: 'test-model', input: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(server.requests).toHaveLength(1);
    expect(server.remaining).toBe(1);
  });
});

describe('broken streams', () => {
  test('a stream cut mid-way surfaces as an error after the events sent so far', async () => {
    const { client } = await start([reply.cutStream(reply.text('this text will never finish'), { afterEvents: 4 })]);
    const stream = await client.responses.create({ model: 'test-model', input: 'x', stream: true });
    const { types, error } = await collectTypes(stream);
    expect(types).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added']);
    expect(error).toBeInstanceOf(Error);
  });

  test('a cut JSON body surfaces as an error', async () => {
    const { client } = await start([reply.cutStream(reply.text('half'), { afterEvents: 0 })]);
    await expect(client.responses.create({ model: 'test-model', input: 'x' })).rejects.toThrow();
  });

  test('an error event surfaces as an APIError with its message', async () => {
    const { client } = await start([reply.errorEvent('The model exploded.')]);
    const stream = await client.responses.create({ model: 'test-model', input: 'x', stream: true });
    const { types, error } = await collectTypes(stream);
    expect(types).toEqual(['response.created', 'response.in_progress']);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toContain('The model exploded.');
  });

  test('a slow stream still delivers every event', async () => {
    const { client } = await start([reply.slow(reply.text('slow but steady'), { delayMs: 5 })]);
    const response = await client.responses.stream({ model: 'test-model', input: 'x' }).finalResponse();
    expect(response.output_text).toBe('slow but steady');
  });

  test('a client abort stops the server writing a slow stream', async () => {
    // Ten events a minute apart: only the abort can end this reply before the test times out.
    const { server, client } = await start([reply.slow(reply.text('one two three four five six'), { delayMs: 60_000 })]);
    const controller = new AbortController();
    const stream = await client.responses.create({ model: 'test-model', input: 'x', stream: true }, { signal: controller.signal });
    for await (const event of stream) {
      expect(event.type).toBe('response.created');
      expect(server.activeReplies).toBe(1);
      controller.abort();
    }
    await expect.poll(() => server.activeReplies, { timeout: 5_000 }).toBe(0);
  });

  test('a client abort during a slow stream leaves the server ready for the next request', async () => {
    const { server, client } = await start([reply.slow(reply.text('a b c d e f g h'), { delayMs: 2_000 }), reply.text('next')]);
    const controller = new AbortController();
    const stream = await client.responses.create({ model: 'test-model', input: 'x', stream: true }, { signal: AbortSignal.any([controller.signal, AbortSignal.timeout(10_000)]) });
    const types: string[] = [];
    const reading = (async () => {
      for await (const event of stream) {
        types.push(event.type);
        controller.abort();
      }
    })();
    await reading.catch(() => undefined);
    expect(controller.signal.aborted).toBe(true);
    expect(types).toEqual(['response.created']);
    const next = await client.responses.create({ model: 'test-model', input: 'y' });
    expect(next.output_text).toBe('next');
    expect(server.requests).toHaveLength(2);
  });
});

describe('terminal states', () => {
  test('incomplete ends with response.incomplete and the reason', async () => {
    const { client } = await start([reply.incomplete(reply.text('cut short'))]);
    const stream = client.responses.stream({ model: 'test-model', input: 'x' });
    const types: string[] = [];
    stream.on('event', (event) => types.push(event.type));
    const response = await stream.finalResponse();
    expect(types.at(-1)).toBe('response.incomplete');
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.output[0]).toMatchObject({ type: 'message', status: 'incomplete' });
  });

  test('incomplete JSON reply reports the chosen reason', async () => {
    const { client } = await start([reply.incomplete(reply.functionCalls([{ name: 'f', arguments: '{"a":' }]), 'content_filter')]);
    const response = await client.responses.create({ model: 'test-model', input: 'x' });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'content_filter' });
  });

  test('failed ends with response.failed carrying the error', async () => {
    const { client } = await start([reply.failed('The model failed to generate a response.')]);
    const stream = await client.responses.create({ model: 'test-model', input: 'x', stream: true });
    const events: Array<{ type: string; response?: { status: string; error: unknown } }> = [];
    for await (const event of stream) events.push(event as (typeof events)[number]);
    expect(events.map((event) => event.type)).toEqual(['response.created', 'response.in_progress', 'response.failed']);
    expect(events.at(-1)?.response).toMatchObject({
      status: 'failed',
      error: { code: 'server_error', message: 'The model failed to generate a response.' },
    });
  });
});
