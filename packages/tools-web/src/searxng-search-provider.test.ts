import { afterEach, describe, expect, test } from 'vitest';
import { startLocalServer, sendJson, type LocalServer } from './__fixtures__/local-server.js';
import { createSearxngSearchProvider } from './searxng-search-provider.js';

// The documented GET /search?format=json answer.
const searxngAnswer = {
  query: 'searxng',
  number_of_results: 0,
  results: [
    {
      url: 'https://github.com/searxng/searxng',
      title: 'GitHub - searxng/searxng: SearXNG is a free internet metasearch engine',
      content: 'SearXNG is a free internet metasearch engine which aggregates results from various search services.',
      engine: 'duckduckgo',
      parsed_url: ['https', 'github.com', '/searxng/searxng', '', '', ''],
      template: 'default.html',
      engines: ['duckduckgo', 'brave'],
      positions: [1, 2],
      publishedDate: null,
      score: 4.0,
      category: 'general',
    },
    {
      url: 'https://docs.searxng.org/',
      title: 'Welcome to SearXNG',
      content: 'Search without being tracked.',
      engine: 'brave',
      publishedDate: '2024-11-02T00:00:00',
      score: 2.5,
      category: 'general',
    },
    { url: 'https://example.org/third', title: 'Third', content: '', engine: 'bing', score: 1, category: 'general' },
  ],
  answers: [],
  corrections: [],
  infoboxes: [],
  suggestions: ['searxng docker'],
  unresponsive_engines: [],
};

const signal = (): AbortSignal => AbortSignal.timeout(10_000);
let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createSearxngSearchProvider', () => {
  test('GETs {base}/search with q and format=json (keeping a path prefix) and keeps the first count results', async () => {
    server = await startLocalServer((_request, response) => sendJson(response, 200, searxngAnswer));
    const provider = createSearxngSearchProvider({ baseURL: `${server.origin}/searx/`, language: 'en' });

    const results = await provider.search('searxng', { count: 2, signal: signal() });

    const [request] = server.requests;
    const url = new URL(request!.url, server.origin);
    expect(request!.method).toBe('GET');
    expect(url.pathname).toBe('/searx/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: 'searxng', format: 'json', language: 'en' });
    expect(request!.headers.authorization).toBeUndefined();
    expect(results).toEqual([
      {
        title: 'GitHub - searxng/searxng: SearXNG is a free internet metasearch engine',
        url: 'https://github.com/searxng/searxng',
        snippet: 'SearXNG is a free internet metasearch engine which aggregates results from various search services.',
      },
      { title: 'Welcome to SearXNG', url: 'https://docs.searxng.org/', snippet: 'Search without being tracked.', published: '2024-11-02' },
    ]);
  });

  test('explains a 403 as the JSON format being disabled on the instance', async () => {
    server = await startLocalServer((_request, response) => {
      response.writeHead(403, { 'Content-Type': 'text/html' });
      response.end('<h1>403 Forbidden</h1>');
    });
    const provider = createSearxngSearchProvider({ baseURL: server.origin });
    const error = await provider.search('q', { count: 3, signal: signal() }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'search_auth_failed', status: 403 });
    expect((error as Error).message).toContain('search.formats');
  });

  test('reports an instance that is down as a network error after retries', async () => {
    server = await startLocalServer((_request, response) => sendJson(response, 200, searxngAnswer));
    const origin = server.origin;
    await server.close();
    server = undefined;
    const provider = createSearxngSearchProvider({ baseURL: origin, retry: { maxAttempts: 2, sleep: async () => {} } });
    const error = await provider.search('q', { count: 3, signal: signal() }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'search_network_error' });
    expect((error as Error).message).toMatch(/^SearXNG could not be reached at http:\/\/127\.0\.0\.1:\d+: .*\. Check the network or the provider's base URL\. Gave up after 2 attempts\.$/);
  });

  test('needs a base URL', () => {
    expect(() => createSearxngSearchProvider({ baseURL: '' })).toThrow(/SEARXNG_URL/);
    expect(() => createSearxngSearchProvider({ baseURL: 'ftp://x' })).toThrow(/http or https/);
  });
});
