import { afterEach, describe, expect, test } from 'vitest';
import { startLocalServer, sendJson, type LocalServer } from './__fixtures__/local-server.js';
import { createBraveSearchProvider } from './brave-search-provider.js';
import { WebSearchError } from './errors.js';
import type { WebSearchProvider } from './web-search-provider.js';
import { createWebSearchTool } from './web-search-tool.js';

const context = { signal: AbortSignal.timeout(10_000), callId: 'c1', toolName: 'web_search' };
let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function staticProvider(results: Awaited<ReturnType<WebSearchProvider['search']>>): WebSearchProvider & { counts: number[] } {
  const counts: number[] = [];
  return {
    name: 'static',
    counts,
    async search(_query, { count }) {
      counts.push(count);
      return results.slice(0, count);
    },
  };
}

describe('web_search', () => {
  test('gives the model a compact numbered list with title, URL, date and snippet', async () => {
    const provider = staticProvider([
      { title: 'Tokio', url: 'https://tokio.rs/', snippet: 'An async runtime.', published: '2025-01-15' },
      { title: 'async-std', url: 'https://async.rs/', snippet: '' },
    ]);
    const tool = createWebSearchTool(provider);

    const result = await tool.execute({ query: 'rust async' }, context);

    expect(result.isError).toBeUndefined();
    expect(result.content).toBe(
      [
        'Web results for "rust async" (static, 2):',
        '',
        '1. Tokio',
        '   https://tokio.rs/ · 2025-01-15',
        '   An async runtime.',
        '',
        '2. async-std',
        '   https://async.rs/',
      ].join('\n'),
    );
    expect(provider.counts).toEqual([8]);
    // A UI gets the same results as links; the model only reads the list above.
    expect(result.presentation).toEqual([
      { kind: 'links', links: [{ title: 'Tokio', url: 'https://tokio.rs/' }, { title: 'async-std', url: 'https://async.rs/' }] },
    ]);
    expect(tool.describeActivity({ query: 'rust async' })).toBe('Searching the web for "rust async"');
    expect(tool.describeCompletedActivity?.({ query: 'rust async' }, result)).toBe('Found 2 results for "rust async"');
  });

  test('passes the model\'s count, capped by maxCount', async () => {
    const provider = staticProvider([]);
    const tool = createWebSearchTool(provider, { maxCount: 5 });
    const result = await tool.execute({ query: 'x', count: 12 }, context);
    expect(provider.counts).toEqual([5]);
    expect(result.content).toBe('No web results for "x" (static). Try other words.');
    expect(result.presentation).toBeUndefined();
  });

  test('turns a provider failure into an error result instead of throwing', async () => {
    const tool = createWebSearchTool({
      name: 'broken',
      search: async () => {
        throw new WebSearchError('search_quota_exceeded', 'broken', 'Monthly quota used up.', { status: 429 });
      },
    });
    const result = await tool.execute({ query: 'x' }, context);
    expect(result.isError).toBe(true);
    expect(result.content).toBe('Web search failed (search_quota_exceeded): Monthly quota used up.');
    expect(tool.describeCompletedActivity?.({ query: 'x' }, result)).toBe('Web search failed for "x"');
    expect(result.presentation).toBeUndefined();
  });

  test('does not wait for a Retry-After beyond the call\'s deadline', async () => {
    server = await startLocalServer((_request, response) =>
      sendJson(response, 429, { type: 'ErrorResponse', error: { status: 429, code: 'RATE_LIMITED', detail: 'Request rate limit exceeded for plan.' } }, { 'Retry-After': '5' }),
    );
    const slept: number[] = [];
    const provider = createBraveSearchProvider({ apiKey: 'k', baseURL: server.origin, retry: { sleep: async (ms) => void slept.push(ms) } });
    const tool = createWebSearchTool(provider, { timeoutMs: 2_000 });

    const result = await tool.execute({ query: 'x' }, context);

    expect(result.isError).toBe(true);
    expect(result.content).toContain('search_rate_limited');
    expect(result.content).toContain('No retry was made: the next retry would start after the search deadline. Try again in 5 s (after ');
    expect(slept).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  test('reports a provider that does not answer in time as a timeout', async () => {
    server = await startLocalServer(() => {
      // Never answers.
    });
    const provider = createBraveSearchProvider({ apiKey: 'k', baseURL: server.origin });
    const tool = createWebSearchTool(provider, { timeoutMs: 300 });
    const result = await tool.execute({ query: 'x' }, context);
    expect(result.isError).toBe(true);
    expect(result.content).toContain('search_timeout');
  });

  test('is read-only and parallel', () => {
    const tool = createWebSearchTool(staticProvider([]));
    expect(tool).toMatchObject({ name: 'web_search', isReadOnly: true, isDestructive: false, executionMode: 'parallel' });
  });
});
