import { afterEach, describe, expect, test } from 'vitest';
import { startLocalServer, sendJson, type LocalServer } from './__fixtures__/local-server.js';
import { WebSearchError } from './errors.js';
import { createTavilySearchProvider } from './tavily-search-provider.js';

// The documented POST /search answer.
const tavilyAnswer = {
  query: 'Who is Leo Messi?',
  answer: null,
  images: [],
  results: [
    {
      title: 'Lionel Messi - Wikipedia',
      url: 'https://en.wikipedia.org/wiki/Lionel_Messi',
      content: 'Lionel Andrés "Leo" Messi is an Argentine professional footballer who plays as a forward.',
      score: 0.81025416,
      raw_content: null,
      favicon: 'https://en.wikipedia.org/static/favicon/wikipedia.ico',
    },
    {
      title: 'Messi signs new deal',
      url: 'https://news.example.com/messi',
      content: 'The forward extended his contract.',
      score: 0.7,
      raw_content: null,
      published_date: 'Wed, 15 Jan 2025 10:00:00 GMT',
    },
  ],
  response_time: '1.67',
  request_id: '123e4567-e89b-12d3-a456-426614174111',
};

const signal = (): AbortSignal => AbortSignal.timeout(10_000);
let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createTavilySearchProvider', () => {
  test('POSTs /search with a JSON body and the key as a Bearer token, and reads results', async () => {
    server = await startLocalServer((_request, response) => sendJson(response, 200, tavilyAnswer));
    const provider = createTavilySearchProvider({ apiKey: 'tvly-test', baseURL: server.origin });

    const results = await provider.search('Who is Leo Messi?', { count: 5, signal: signal() });

    const [request] = server.requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe('/search');
    expect(request!.headers.authorization).toBe('Bearer tvly-test');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.body)).toEqual({ query: 'Who is Leo Messi?', max_results: 5 });
    expect(results).toEqual([
      {
        title: 'Lionel Messi - Wikipedia',
        url: 'https://en.wikipedia.org/wiki/Lionel_Messi',
        snippet: 'Lionel Andrés "Leo" Messi is an Argentine professional footballer who plays as a forward.',
      },
      { title: 'Messi signs new deal', url: 'https://news.example.com/messi', snippet: 'The forward extended his contract.', published: '2025-01-15' },
    ]);
  });

  test('sends the configured search_depth and topic', async () => {
    server = await startLocalServer((_request, response) => sendJson(response, 200, tavilyAnswer));
    const provider = createTavilySearchProvider({ apiKey: 'k', baseURL: server.origin, searchDepth: 'advanced', topic: 'news' });
    await provider.search('q', { count: 30, signal: signal() });
    expect(JSON.parse(server.requests[0]!.body)).toEqual({ query: 'q', max_results: 20, search_depth: 'advanced', topic: 'news' });
  });

  test('retries a 503 with jittered exponential backoff, then succeeds', async () => {
    let calls = 0;
    server = await startLocalServer((_request, response) => {
      calls += 1;
      if (calls <= 2) sendJson(response, 503, { detail: { error: 'Service temporarily unavailable' } });
      else sendJson(response, 200, tavilyAnswer);
    });
    const delays: number[] = [];
    const provider = createTavilySearchProvider({
      apiKey: 'k',
      baseURL: server.origin,
      retry: { baseDelayMs: 100, random: () => 0.5, sleep: async (ms) => void delays.push(ms) },
    });

    const results = await provider.search('q', { count: 2, signal: signal() });

    expect(server.requests).toHaveLength(3);
    expect(delays).toEqual([75, 150]);
    expect(results).toHaveLength(2);
  });

  test('reports a bad key as an auth error with Tavily\'s detail', async () => {
    server = await startLocalServer((_request, response) => sendJson(response, 401, { detail: { error: 'Unauthorized: missing or invalid API key.' } }));
    const provider = createTavilySearchProvider({ apiKey: 'bad', baseURL: server.origin });

    const error = await provider.search('q', { count: 3, signal: signal() }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(WebSearchError);
    expect(error).toMatchObject({ code: 'search_auth_failed', status: 401 });
    expect((error as Error).message).toBe('Tavily rejected the API key, HTTP 401 (Unauthorized: missing or invalid API key.). Check TAVILY_API_KEY.');
  });

  test('reports a plan limit (432) as quota exceeded without retrying', async () => {
    server = await startLocalServer((_request, response) => sendJson(response, 432, { detail: { error: 'This request exceeds your plan\'s set usage limit.' } }));
    const provider = createTavilySearchProvider({ apiKey: 'k', baseURL: server.origin, retry: { sleep: async () => {} } });
    await expect(provider.search('q', { count: 3, signal: signal() })).rejects.toMatchObject({ code: 'search_quota_exceeded', status: 432 });
    expect(server.requests).toHaveLength(1);
  });

  test('gives up on 429 once retries are used up, saying how many attempts were made and when to try again', async () => {
    server = await startLocalServer((_request, response) => sendJson(response, 429, { detail: { error: 'Rate limit exceeded' } }, { 'Retry-After': '2' }));
    const provider = createTavilySearchProvider({ apiKey: 'k', baseURL: server.origin, retry: { maxAttempts: 3, sleep: async () => {} } });
    const error = await provider.search('q', { count: 3, signal: signal() }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'search_rate_limited', status: 429 });
    expect((error as Error).message).toMatch(/^Tavily is rate limiting this key, HTTP 429 \(Rate limit exceeded\)\. Gave up after 3 attempts\. Try again in 2 s \(after \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\)\.$/);
    expect(server.requests).toHaveLength(3);
  });
});
