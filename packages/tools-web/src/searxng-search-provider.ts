import { z } from 'zod';
import { endpointURL } from './endpoint-url.js';
import { WebConfigError } from './errors.js';
import { resolveRetryOptions, type RetryOptions } from './retry-policy.js';
import { sendProviderRequest, type ProviderFailure } from './send-provider-request.js';
import { toSearchResult } from './to-search-result.js';
import type { WebSearchProvider } from './web-search-provider.js';
import { lazySchema } from './lazy-schema.js';

/** Options of {@link createSearxngSearchProvider}. */
export interface SearxngSearchProviderOptions {
  /** The instance's base URL (`https://searx.example.org`); its `json` format must be enabled in settings.yml. */
  baseURL: string;
  /** `categories` parameter (comma-separated in the request), sent only when set. */
  categories?: string[];
  /** `language` parameter, sent only when set. */
  language?: string;
  /** `safesearch` parameter (0, 1, 2), sent only when set. */
  safesearch?: 0 | 1 | 2;
  /** Extra headers, e.g. `Authorization` for an instance behind a proxy with auth. */
  headers?: Record<string, string>;
  retry?: RetryOptions;
}

// GET /search?q=…&format=json → { query, number_of_results, results: [{ url, title, content, publishedDate, engine, score, … }], … }
const searxngResponseSchema = lazySchema(() =>
  z.object({
    query: z.string().optional(),
    results: z.array(
      z.object({
        url: z.string(),
        title: z.string().nullish(),
        content: z.string().nullish(),
        publishedDate: z.string().nullish(),
      }),
    ),
  }),
);

/**
 * A web search provider on a SearXNG instance's search API: `GET {baseURL}/search?q=…&format=json`
 * (no key); reads `results[]` and keeps the first `count` (SearXNG has no result-count parameter).
 * @throws WebConfigError when the base URL is missing or malformed.
 */
export function createSearxngSearchProvider(options: SearxngSearchProviderOptions): WebSearchProvider {
  if (typeof options.baseURL !== 'string' || options.baseURL.trim() === '') {
    throw new WebConfigError('SearXNG needs the instance URL (set SEARXNG_URL or pass baseURL).');
  }
  const endpoint = endpointURL(options.baseURL, 'search', 'SearXNG');
  const retry = resolveRetryOptions(options.retry);
  return {
    name: 'searxng',
    async search(query, { count, signal, deadline }) {
      const url = new URL(endpoint);
      url.searchParams.set('q', query);
      url.searchParams.set('format', 'json');
      if (options.categories !== undefined && options.categories.length > 0) url.searchParams.set('categories', options.categories.join(','));
      if (options.language !== undefined) url.searchParams.set('language', options.language);
      if (options.safesearch !== undefined) url.searchParams.set('safesearch', String(options.safesearch));
      const body = await sendProviderRequest({
        provider: 'searxng',
        label: 'SearXNG',
        url,
        method: 'GET',
        headers: { Accept: 'application/json', ...options.headers },
        signal,
        deadline,
        retry,
        schema: searxngResponseSchema(),
        describeFailure: describeSearxngFailure,
      });
      return body.results
        .slice(0, count)
        .map((result) => toSearchResult({ title: result.title, url: result.url, snippet: result.content, dates: [result.publishedDate] }));
    },
  };
}

function describeSearxngFailure(status: number): ProviderFailure {
  if (status === 403) {
    return {
      code: 'search_auth_failed',
      message: 'SearXNG answered HTTP 403: the instance does not allow the JSON format (add `json` to search.formats in its settings.yml) or refuses this client.',
    };
  }
  if (status === 401) return { code: 'search_auth_failed', message: 'SearXNG answered HTTP 401: the instance needs credentials (pass headers).' };
  if (status === 429) return { code: 'search_rate_limited', message: 'SearXNG is rate limiting this client (HTTP 429).' };
  if (status === 400) return { code: 'search_bad_request', message: 'SearXNG refused the request (HTTP 400).' };
  return { code: 'search_provider_error', message: `SearXNG failed, HTTP ${status}.` };
}
