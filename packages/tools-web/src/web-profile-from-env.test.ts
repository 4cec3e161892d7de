import { afterEach, describe, expect, test } from 'vitest';
import { startLocalServer, sendJson, type LocalServer } from './__fixtures__/local-server.js';
import { createWebTools } from './create-web-tools.js';
import { WebConfigError } from './errors.js';
import { webProfileFromEnv } from './web-profile-from-env.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('webProfileFromEnv', () => {
  test('gives no profile (so no web tools) when nothing is configured', () => {
    expect(webProfileFromEnv({})).toBeUndefined();
    expect(createWebTools(webProfileFromEnv({}))).toEqual([]);
  });

  test('picks the first configured provider: Brave, then Tavily, then SearXNG', () => {
    expect(webProfileFromEnv({ TAVILY_API_KEY: 't', BRAVE_API_KEY: 'b' })?.search?.name).toBe('brave');
    expect(webProfileFromEnv({ TAVILY_API_KEY: 't', SEARXNG_URL: 'http://s' })?.search?.name).toBe('tavily');
    expect(webProfileFromEnv({ SEARXNG_URL: 'http://searx.local:8080' })?.search?.name).toBe('searxng');
  });

  test('honours WEB_SEARCH_PROVIDER', () => {
    expect(webProfileFromEnv({ WEB_SEARCH_PROVIDER: 'searxng', BRAVE_API_KEY: 'b', SEARXNG_URL: 'http://s' })?.search?.name).toBe('searxng');
    expect(webProfileFromEnv({ WEB_SEARCH_PROVIDER: 'none', BRAVE_API_KEY: 'b' })).toBeUndefined();
    expect(() => webProfileFromEnv({ WEB_SEARCH_PROVIDER: 'bing' })).toThrow(WebConfigError);
    expect(() => webProfileFromEnv({ WEB_SEARCH_PROVIDER: 'tavily' })).toThrow(/TAVILY_API_KEY/);
  });

  test('enables fetching with a provider unless WEB_FETCH says otherwise, and alone with WEB_FETCH=true', () => {
    expect(createWebTools(webProfileFromEnv({ BRAVE_API_KEY: 'b' })).map((tool) => tool.name)).toEqual(['web_search', 'web_fetch']);
    expect(createWebTools(webProfileFromEnv({ BRAVE_API_KEY: 'b', WEB_FETCH: 'false' })).map((tool) => tool.name)).toEqual(['web_search']);
    expect(createWebTools(webProfileFromEnv({ WEB_FETCH: 'true' })).map((tool) => tool.name)).toEqual(['web_fetch']);
    expect(() => webProfileFromEnv({ WEB_FETCH: 'maybe' })).toThrow(/WEB_FETCH/);
  });

  test('reads WEB_FETCH_ALLOW_HOSTS', () => {
    expect(webProfileFromEnv({ WEB_FETCH: '1', WEB_FETCH_ALLOW_HOSTS: ' 127.0.0.1 , wiki.corp ' })?.fetch).toEqual({ allowHosts: ['127.0.0.1', 'wiki.corp'] });
  });

  test('sends the key from BRAVE_API_KEY to the BRAVE_BASE_URL endpoint', async () => {
    server = await startLocalServer((_request, response) => sendJson(response, 200, { type: 'search', web: { results: [] } }));
    const profile = webProfileFromEnv({ BRAVE_API_KEY: 'from-env', BRAVE_BASE_URL: server.origin });
    await profile?.search?.search('q', { count: 1, signal: AbortSignal.timeout(5_000) });
    expect(server.requests[0]?.headers['x-subscription-token']).toBe('from-env');
  });
});
