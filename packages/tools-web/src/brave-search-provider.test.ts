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

  test('without any rate-limit header (a 500, a gateway 502, a bare 429), backs off with jitter, then says it gave up', async () => {
    const answers = [
      () => ({ status: 500, body: '{"type":"ErrorResponse","error":{"status":500,"code":"INTERNAL","detail":"Internal error"}}', type: 'application/json' }),
      () => ({ status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>', type: 'text/html' }),
      () => ({ status: 429, body: '', type: 'text/plain' }),
      () => ({ status: 503, body: '', type: 'text/plain' }),
    ];
    server = await startLocalServer((_request, response) => {
      const answer = answers[server!.requests.length - 1]!();
      response.writeHead(answer.status, { 'Content-Type': answer.type });
      response.end(answer.body);
    });
    const delays: number[] = [];
    const provider = createBraveSearchProvider({ apiKey: 'k', baseURL: server.origin, retry: { random: () => 0.5, sleep: async (ms) => void delays.push(ms) } });

    const error = await provider.search('q', { count: 3, signal: signal() }).catch((caught: unknown) => caught);

    // 500 ms doubling per retry, at 75 % of each step (random 0.5): never the 0 s a missing reset used to mean.
    expect(delays).toEqual([375, 750, 1500]);
    expect(server.requests).toHaveLength(4);
    expect(error).toMatchObject({ code: 'search_provider_error', status: 503 });
    expect((error as Error).message).toBe('Brave Search failed, HTTP 503. Gave up after 4 attempts. The provider did not say when to try again.');
  });

  test('a bare 429 is retried after the backoff, then succeeds', async () => {
    server = await startLocalServer((_request, response) => {
      if (server!.requests.length === 1) {
        response.writeHead(429);
        response.end();
        return;
      }
      sendJson(response, 200, fixture);
    });
    const delays: number[] = [];
    const provider = createBraveSearchProvider({ apiKey: 'k', baseURL: server.origin, retry: { random: () => 0, sleep: async (ms) => void delays.push(ms) } });

    const results = await provider.search('q', { count: 2, signal: signal() });

    expect(delays).toEqual([250]);
    expect(results).toHaveLength(2);
  });

  test('a 429 asking to wait longer than a retry may wait gives up at once and says when to try again', async () => {
    server = await startLocalServer((_request, response) =>
      sendJson(response, 429, { type: 'ErrorResponse', error: { status: 429, code: 'RATE_LIMITED', detail: 'Request rate limit exceeded for plan.' } }, { 'Retry-After': '3600' }),
    );
    const delays: number[] = [];
    const provider = createBraveSearchProvider({ apiKey: 'k', baseURL: server.origin, retry: { sleep: async (ms) => void delays.push(ms) } });
    const before = Date.now();

    const error = await provider.search('q', { count: 3, signal: signal() }).catch((caught: unknown) => caught);

    expect(delays).toEqual([]);
    expect(error).toMatchObject({ code: 'search_rate_limited', status: 429 });
    const message = (error as Error).message;
    expect(message).toContain('Brave Search is rate limiting this key, HTTP 429 (RATE_LIMITED: Request rate limit exceeded for plan.). No retry was made: the provider asks to wait longer than this call waits for a retry (10 s). Try again in 60 min (after ');
    const retryAt = Date.parse(/after (\S+ \S+) UTC\)/.exec(message)![1]!.replace(' ', 'T') + 'Z');
    expect(retryAt - before).toBeGreaterThanOrEqual(3_599_000);
    expect(retryAt - before).toBeLessThanOrEqual(3_602_000);
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
    expect((error as Error).message).toMatch(/Try again in 17 days \(after \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\)\.$/);
    expect((error as Error).message).not.toContain('retr');
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
