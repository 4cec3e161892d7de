import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, test } from 'vitest';
import { startLocalServer, sendJson, type LocalServer } from './__fixtures__/local-server.js';
import { createBraveSearchProvider } from './brave-search-provider.js';
import { WebSearchError } from './errors.js';

const fixture = JSON.parse(readFileSync(new URL('./__fixtures__/brave-web-search.json', import.meta.url), 'utf8')) as unknown;
const signal = (): AbortSignal => AbortSignal.timeout(10_000);
let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createBraveSearchProvider', () => {
  test('sends GET /res/v1/web/search with q, count and the X-Subscription-Token header, and reads web.results', async () => {
    server = await startLocalServer((_request, response) => sendJson(response, 200, fixture));
    const provider = createBraveSearchProvider({ apiKey: 'BSA-test-key', baseURL: server.origin });

    const results = await provider.search('rust async runtime', { count: 5, signal: signal() });

    const [request] = server.requests;
    const url = new URL(request!.url, server.origin);
    expect(request!.method).toBe('GET');
    expect(url.pathname).toBe('/res/v1/web/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: 'rust async runtime', count: '5' });
    expect(request!.headers['x-subscription-token']).toBe('BSA-test-key');
    expect(request!.headers.accept).toBe('application/json');
    expect(request!.url).not.toContain('BSA-test-key');
    expect(results).toEqual([
      {
        title: 'Tokio - An asynchronous Rust runtime',
        url: 'https://tokio.rs/',
        snippet: 'Tokio is an event-driven, non-blocking I/O platform for writing asynchronous applications with the Rust programming language & more.',
        published: '2025-01-15',
      },
      { title: 'async-std', url: 'https://async.rs/', snippet: 'Async version of the Rust standard library.', published: '3 days ago' },
    ]);
  });

  test('caps count at Brave\'s maximum of 20', async () => {
    server = await startLocalServer((_request, response) => sendJson(response, 200, fixture));
    const provider = createBraveSearchProvider({ apiKey: 'k', baseURL: server.origin });
    await provider.search('q', { count: 50, signal: signal() });
    expect(new URL(server.requests[0]!.url, server.origin).searchParams.get('count')).toBe('20');
  });

  test('retries a 429 after the Retry-After delay, then succeeds', async () => {
    let calls = 0;
    server = await startLocalServer((_request, response) => {
      calls += 1;
      if (calls === 1) {
        sendJson(response, 429, { type: 'ErrorResponse', error: { id: 'x', status: 429, code: 'RATE_LIMITED', detail: 'Request rate limit exceeded for plan.' } }, { 'Retry-After': '1' });
        return;
      }
      sendJson(response, 200, fixture);
    });
    const delays: number[] = [];
    const provider = createBraveSearchProvider({
      apiKey: 'k',
      baseURL: server.origin,
      retry: { sleep: async (ms) => void delays.push(ms) },
    });

    const results = await provider.search('rust', { count: 2, signal: signal() });

    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([1000]);
    expect(results).toHaveLength(2);
  });

  test('without Retry-After, waits for the X-RateLimit-Reset of the exhausted window, then succeeds', async () => {
    let calls = 0;
    server = await startLocalServer((_request, response) => {
      calls += 1;
      if (calls === 1) {
        // Brave's documented headers: per-second and per-month windows; the per-second one is used up.
        sendJson(
          response,
          429,
          { type: 'ErrorResponse', error: { id: 'x', status: 429, code: 'RATE_LIMITED', detail: 'Request rate limit exceeded for plan', meta: { plan: 'Free', rate_limit: 1, rate_current: 1, quota_limit: 2000, quota_current: 15 } } },
          { 'X-RateLimit-Limit': '1, 2000', 'X-RateLimit-Remaining': '0, 1985', 'X-RateLimit-Reset': '2, 1419704' },
        );
        return;
      }
      sendJson(response, 200, fixture);
    });
    const delays: number[] = [];
    const provider = createBraveSearchProvider({ apiKey: 'k', baseURL: server.origin, retry: { sleep: async (ms) => void delays.push(ms) } });

    const results = await provider.search('rust', { count: 2, signal: signal() });

    expect(delays).toEqual([2000]);
    expect(server.requests).toHaveLength(2);
    expect(results).toHaveLength(2);
  });

  test('reports a used-up monthly quota as quota exceeded, without retrying', async () => {
    server = await startLocalServer((_request, response) =>
      sendJson(
        response,
        429,
        { type: 'ErrorResponse', error: { id: 'x', status: 429, code: 'RATE_LIMITED', detail: 'Request rate limit exceeded for plan', meta: { plan: 'Free', rate_limit: 1, rate_current: 0, quota_limit: 2000, quota_current: 2000 } } },
        { 'X-RateLimit-Remaining': '1, 0', 'X-RateLimit-Reset': '1, 1419704' },
      ),
    );
    const delays: number[] = [];
    const provider = createBraveSearchProvider({ apiKey: 'k', baseURL: server.origin, retry: { sleep: async (ms) => void delays.push(ms) } });

    const error = await provider.search('q', { count: 3, signal: signal() }).catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: 'search_quota_exceeded', status: 429 });
    expect((error as Error).message).toContain('Brave Search quota is used up');
    expect((error as Error).message).toContain('retry after 17 days');
    expect(delays).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  test('reports an invalid subscription token as an auth error naming the key variable', async () => {
    server = await startLocalServer((_request, response) =>
      sendJson(response, 422, {
        type: 'ErrorResponse',
        error: { id: 'e1', status: 422, code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.', meta: {} },
        time: 1754364294,
      }),
    );
    const provider = createBraveSearchProvider({ apiKey: 'wrong', baseURL: server.origin });

    const error = await provider.search('q', { count: 3, signal: signal() }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(WebSearchError);
    expect(error).toMatchObject({ code: 'search_auth_failed', provider: 'brave', status: 422 });
    expect((error as Error).message).toContain('SUBSCRIPTION_TOKEN_INVALID: The provided subscription token is invalid.');
    expect((error as Error).message).toContain('BRAVE_API_KEY');
    expect(server.requests).toHaveLength(1);
  });

  test('rejects a body without the documented shape as an invalid response', async () => {
    server = await startLocalServer((_request, response) => sendJson(response, 200, { web: { results: [{ url: 42 }] } }));
    const provider = createBraveSearchProvider({ apiKey: 'k', baseURL: server.origin });
    await expect(provider.search('q', { count: 3, signal: signal() })).rejects.toMatchObject({ code: 'search_response_invalid' });
  });

  test('needs an API key', () => {
    expect(() => createBraveSearchProvider({ apiKey: ' ' })).toThrow(/BRAVE_API_KEY/);
  });
});
