import { z } from 'zod';
import { endpointURL } from './endpoint-url.js';
import { WebConfigError } from './errors.js';
import { resolveRetryOptions, type RetryOptions } from './retry-policy.js';
import { sendProviderRequest, type ProviderFailure } from './send-provider-request.js';
import { toSearchResult } from './to-search-result.js';
import type { WebSearchProvider } from './web-search-provider.js';
import { lazySchema } from './lazy-schema.js';

/** Options of {@link createTavilySearchProvider}. */
export interface TavilySearchProviderOptions {
  /** The API key (`tvly-…`), sent as `Authorization: Bearer …`. */
  apiKey: string;
  /** Default `https://api.tavily.com` (override for proxies and tests). */
  baseURL?: string;
  /** `search_depth` (Tavily's default `basic` when unset). */
  searchDepth?: 'basic' | 'advanced' | 'fast' | 'ultra-fast';
  /** `topic` (Tavily's default `general` when unset); `news` adds `published_date` to results. */
  topic?: 'general' | 'news' | 'finance';
  retry?: RetryOptions;
}

/** Tavily's documented range for `max_results` is 0 to 20. */
const TAVILY_MAX_RESULTS = 20;

// POST /search → { query, answer?, images, results: [{ title, url, content, score, raw_content?, published_date? }], response_time }
const tavilyResponseSchema = lazySchema(() =>
  z.object({
    query: z.string().optional(),
    results: z.array(
      z.object({
        title: z.string(),
        url: z.string(),
        content: z.string().nullish(),
        score: z.number().nullish(),
        published_date: z.string().nullish(),
      }),
    ),
  }),
);

// Errors: { detail: { error: "…" } } (401 key, 429 rate limit, 432/433 plan or pay-as-you-go limit, 400 bad request).
const tavilyErrorSchema = lazySchema(() =>
  z.object({ detail: z.union([z.object({ error: z.string() }), z.string()]) }),
);

/**
 * A web search provider on the Tavily Search API: `POST {baseURL}/search` with a JSON body
 * `{ query, max_results }` and the key in `Authorization: Bearer`; reads `results[]`.
 * @throws WebConfigError when the key or base URL is missing or malformed.
 */
export function createTavilySearchProvider(options: TavilySearchProviderOptions): WebSearchProvider {
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
    throw new WebConfigError('Tavily needs an API key (set TAVILY_API_KEY or pass apiKey).');
  }
  const url = endpointURL(options.baseURL ?? 'https://api.tavily.com', 'search', 'Tavily');
  const retry = resolveRetryOptions(options.retry);
  return {
    name: 'tavily',
    async search(query, { count, signal, deadline }) {
      const request: Record<string, unknown> = { query, max_results: Math.min(Math.max(1, count), TAVILY_MAX_RESULTS) };
      if (options.searchDepth !== undefined) request.search_depth = options.searchDepth;
      if (options.topic !== undefined) request.topic = options.topic;
      const body = await sendProviderRequest({
        provider: 'tavily',
        label: 'Tavily',
        url,
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `Bearer ${options.apiKey}` },
        body: JSON.stringify(request),
        signal,
        deadline,
        retry,
        schema: tavilyResponseSchema(),
        describeFailure: describeTavilyFailure,
      });
      return body.results
        .slice(0, count)
        .map((result) => toSearchResult({ title: result.title, url: result.url, snippet: result.content, dates: [result.published_date] }));
    },
  };
}

function describeTavilyFailure(status: number, body: unknown): ProviderFailure {
  const parsed = tavilyErrorSchema().safeParse(body);
  const text = parsed.success ? (typeof parsed.data.detail === 'string' ? parsed.data.detail : parsed.data.detail.error) : '';
  const detail = text === '' ? '' : ` (${text})`;
  if (status === 401) return { code: 'search_auth_failed', message: `Tavily rejected the API key, HTTP 401${detail}. Check TAVILY_API_KEY.` };
  if (status === 432 || status === 433) {
    return { code: 'search_quota_exceeded', message: `Tavily usage limit reached, HTTP ${status}${detail}. Upgrade the plan or raise the pay-as-you-go limit.` };
  }
  if (status === 403) return { code: 'search_auth_failed', message: `Tavily refused access, HTTP 403${detail}.` };
  if (status === 429) {
    return { code: 'search_rate_limited', message: `Tavily is rate limiting this key, HTTP 429${detail}.` };
  }
  if (status === 400) return { code: 'search_bad_request', message: `Tavily refused the request, HTTP 400${detail}. Try a shorter or simpler query.` };
  return { code: 'search_provider_error', message: `Tavily failed, HTTP ${status}${detail}.` };
}
