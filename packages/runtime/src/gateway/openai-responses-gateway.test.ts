import { reply } from '@core/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { ModelGatewayError, UsageError } from '../errors.js';
import { gatewayFor, withServer } from '../__fixtures__/loop-harness.js';
import type { ModelRequest } from './model-gateway.js';
import { createOpenAIResponsesGateway } from './openai-responses-gateway.js';

const hello: ModelRequest = { input: [{ type: 'message', role: 'user', content: 'hello' }], tools: [] };

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('createOpenAIResponsesGateway', () => {
  it('streams the request and returns the completed response with usage', async () => {
    await withServer([reply.text('Hi there.', { usage: { inputTokens: 12, outputTokens: 3 } })], async (server) => {
      const deltas: string[] = [];
      const response = await gatewayFor(server).createResponse(hello, { onTextDelta: (delta) => deltas.push(delta) });
      expect(response.status).toBe('completed');
      expect(response.id).toMatch(/^resp_/);
      expect(response.output[0]).toMatchObject({ type: 'message', role: 'assistant' });
      expect(response.usage).toMatchObject({ inputTokens: 12, outputTokens: 3, totalTokens: 15 });
      expect(deltas.join('')).toBe('Hi there.');
      expect(server.requests[0]?.body).toMatchObject({ model: 'test-model', stream: true, store: false });
      // No tools: neither tools nor parallel_tool_calls are sent.
      expect(server.requests[0]?.body.tools).toBeUndefined();
      expect(server.requests[0]?.body.parallel_tool_calls).toBeUndefined();
    });
  });

  it('lets the SDK retry a 429 and a 500 before succeeding', async () => {
    await withServer(
      [reply.rateLimited({ retryAfterSeconds: 0 }), reply.serverError(500, { retryAfterSeconds: 0 }), reply.text('third time lucky')],
      async (server) => {
        const response = await gatewayFor(server, { maxRetries: 2 }).createResponse(hello);
        expect(response.status).toBe('completed');
        expect(server.requests).toHaveLength(3);
        expect(server.requests.map((request) => request.headers['x-stainless-retry-count'])).toEqual(['0', '1', '2']);
      },
    );
  });

  it('fails with the status once the retries are used up', async () => {
    await withServer([reply.serverError(503, { retryAfterSeconds: 0 }), reply.serverError(503, { retryAfterSeconds: 0 })], async (server) => {
      const error = await rejection(gatewayFor(server, { maxRetries: 1 }).createResponse(hello));
      expect(error).toBeInstanceOf(ModelGatewayError);
      expect(error).toMatchObject({ status: 503, code: 'model_server_error' });
      expect(server.requests).toHaveLength(2);
    });
  });

  it('says the API key was rejected on a 401', async () => {
    await withServer([reply.httpError(401, { message: 'Incorrect API key provided.', code: 'invalid_api_key' })], async (server) => {
      const error = await rejection(gatewayFor(server).createResponse(hello));
      expect(error).toMatchObject({ status: 401, code: 'model_auth_failed' });
      expect((error as Error).message).toMatch(/rejected the API key .*Check the apiKey option or OPENAI_API_KEY/);
      expect(server.requests).toHaveLength(1);
    });
  });

  it('turns an error event in the stream into a gateway error', async () => {
    await withServer([reply.errorEvent('The model overloaded.', { code: 'server_error' })], async (server) => {
      const error = await rejection(gatewayFor(server).createResponse(hello));
      expect(error).toBeInstanceOf(ModelGatewayError);
      expect(error).toMatchObject({ code: 'model_stream_error' });
      expect((error as Error).message).toBe('The model stream reported an error: The model overloaded (code server_error).');
    });
  });

  it('ends an API message quoted in an error with one period, never two', async () => {
    await withServer([reply.errorEvent('An error occurred while processing the request.', { code: null })], async (server) => {
      const error = await rejection(gatewayFor(server).createResponse(hello));
      expect((error as Error).message).toBe('The model stream reported an error: An error occurred while processing the request.');
    });
  });

  it('turns a failed response into a gateway error', async () => {
    await withServer([reply.failed('Something broke upstream.')], async (server) => {
      const error = await rejection(gatewayFor(server).createResponse(hello));
      expect(error).toMatchObject({ code: 'model_response_failed' });
      expect((error as Error).message).toMatch(/server_error: Something broke upstream\./);
    });
  });

  it('turns a stream cut before the terminal event into a gateway error', async () => {
    await withServer([reply.cutStream(reply.text('this will be cut off somewhere'), { afterEvents: 4 })], async (server) => {
      const error = await rejection(gatewayFor(server, { maxRetries: 0 }).createResponse(hello));
      expect(error).toBeInstanceOf(ModelGatewayError);
      expect(error).toMatchObject({ code: 'model_stream_interrupted' });
      expect((error as Error).message).toMatch(/was cut before the response was complete/);
    });
  });

  it('rejects with an AbortError (not a gateway error) when the signal aborts mid-stream', async () => {
    await withServer([reply.slow(reply.text('slow words arrive one by one'), { delayMs: 100 })], async (server) => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 150);
      const error = await rejection(gatewayFor(server).createResponse(hello, { signal: controller.signal }));
      expect(error).not.toBeInstanceOf(ModelGatewayError);
      expect((error as Error).name).toBe('AbortError');
    });
  });

  it('times out a stream that stalls after its headers (the SDK timeout only covers the headers)', async () => {
    // Headers and the first event arrive at once; every later event waits 5 s.
    await withServer([reply.slow(reply.text('a stalled answer'), { delayMs: 5_000 })], async (server) => {
      const error = await rejection(gatewayFor(server, { timeoutMs: 200, maxRetries: 0 }).createResponse(hello));
      expect(error).toBeInstanceOf(ModelGatewayError);
      expect(error).toMatchObject({ code: 'model_timeout' });
      expect((error as Error).message).toContain('did not complete within 200 ms after it started');
      expect(server.requests).toHaveLength(1);
    });
  });

  it('reports the reason of an incomplete response', async () => {
    await withServer([reply.incomplete(reply.text('cut'), 'max_output_tokens')], async (server) => {
      const response = await gatewayFor(server).createResponse(hello);
      expect(response.status).toBe('incomplete');
      expect(response.incompleteReason).toBe('max_output_tokens');
    });
  });

  it('retries once without encrypted reasoning when the model refuses it, and stops asking', async () => {
    await withServer(
      [reply.httpError(400, { message: 'Encrypted content is not supported with this model.', param: 'include' }), reply.text('first'), reply.text('second')],
      async (server) => {
        const gateway = gatewayFor(server);
        await gateway.createResponse(hello);
        await gateway.createResponse(hello);
        expect(server.requests.map((request) => request.body.include)).toEqual([['reasoning.encrypted_content'], undefined, undefined]);
      },
    );
  });

  it('passes request options through without letting them replace the core fields', async () => {
    await withServer([reply.text('ok')], async (server) => {
      const gateway = gatewayFor(server, { requestOptions: { max_output_tokens: 500, model: 'other', stream: false, reasoning: { effort: 'low' } } });
      await gateway.createResponse({ ...hello, instructions: 'Be nice.' });
      expect(server.requests[0]?.body).toMatchObject({
        max_output_tokens: 500,
        model: 'test-model',
        stream: true,
        reasoning: { effort: 'low' },
        instructions: 'Be nice.',
      });
    });
  });

  it('uses a client it is given', async () => {
    await withServer([reply.text('ok')], async (server) => {
      const client = new OpenAI({ apiKey: 'from-client', baseURL: server.baseURL });
      await createOpenAIResponsesGateway({ client, model: 'test-model' }).createResponse(hello);
      expect(server.requests[0]?.headers.authorization).toBe('Bearer from-client');
    });
  });

  it('refuses previousResponseId with store: false', () => {
    expect(() => createOpenAIResponsesGateway({ apiKey: 'k', model: 'm', previousResponseId: true, store: false })).toThrow(UsageError);
  });
});
