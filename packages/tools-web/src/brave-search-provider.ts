import { z } from 'zod';
import { endpointURL } from './endpoint-url.js';
import { WebConfigError } from './errors.js';
import { isRetryableStatus, parseRetryAfter, resolveRetryOptions, type RetryOptions } from './retry-policy.js';
import { sendProviderRequest, type ProviderFailure } from './send-provider-request.js';
import { toSearchResult } from './to-search-result.js';
import type { WebSearchProvider } from './web-search-provider.js';
import { lazySchema } from './lazy-schema.js';

/** Options of {@link createBraveSearchProvider}. */
export interface BraveSearchProviderOptions {
  /** The subscription token, sent as `X-Subscription-Token`. */
  apiKey: string;
  /** Default `https://api.search.brave.com` (override for proxies and tests). */
  baseURL?: string;
  /** `country` parameter (2-letter code), sent only when set. */
  country?: string;
  /** `search_lang` parameter, sent only when set. */
  searchLang?: string;
  /** `safesearch` parameter, sent only when set. */
  safesearch?: 'off' | 'moderate' | 'strict';
  retry?: RetryOptions;
}

/** Brave's documented maximum for `count`. */
const BRAVE_MAX_COUNT = 20;

// GET /res/v1/web/search → WebSearchApiResponse; only `web.results[]` matters here.
const braveResponseSchema = lazySchema(() =>
  z.object({
    type: z.string().optional(),
    web: z
      .object({
        results: z.array(
          z.object({
            title: z.string(),
            url: z.string(),
            description: z.string().optional(),
            age: z.string().optional(),
            page_age: z.string().optional(),
          }),
        ),
      })
      .optional(),
  }),
);

// Errors: { type: 'ErrorResponse', error: { id, status, code, detail, meta: { quota_limit, quota_current, … } } }.
const braveErrorSchema = lazySchema(() =>
  z.object({
    error: z.object({
      code: z.string().optional(),
      detail: z.string().optional(),
      status: z.number().optional(),
      meta: z.object({ quota_limit: z.number().nullish(), quota_current: z.number().nullish() }).passthrough().nullish(),
    }),
  }),
);

/**
 * A web search provider on the Brave Search API: `GET {baseURL}/res/v1/web/search?q=…&count=…`
 * with the key in the `X-Subscription-Token` header; reads `web.results[]`.
 * @throws WebConfigError when the key or base URL is missing or malformed.
 */
export function createBraveSearchProvider(options: BraveSearchProviderOptions): WebSearchProvider {
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
    throw new WebConfigError('Brave Search needs an API key (set BRAVE_API_KEY or pass apiKey).');
  }
  const endpoint = endpointURL(options.baseURL ?? 'https://api.search.brave.com', 'res/v1/web/search', 'Brave Search');
  const retry = resolveRetryOptions(options.retry);
  return {
    name: 'brave',
    async search(query, { count, signal, deadline }) {
      const url = new URL(endpoint);
      url.searchParams.set('q', query);
      url.searchParams.set('count', String(Math.min(Math.max(1, count), BRAVE_MAX_COUNT)));
      if (options.country !== undefined) url.searchParams.set('country', options.country);
      if (options.searchLang !== undefined) url.searchParams.set('search_lang', options.searchLang);
      if (options.safesearch !== undefined) url.searchParams.set('safesearch', options.safesearch);
      const body = await sendProviderRequest({
        provider: 'brave',
        label: 'Brave Search',
        url,
        method: 'GET',
        headers: { Accept: 'application/json', 'X-Subscription-Token': options.apiKey },
        signal,
        deadline,
        retry,
        schema: braveResponseSchema(),
        describeFailure: describeBraveFailure,
        isRetryable: (status, errorBody) => isRetryableStatus(status) && !isQuotaExhausted(errorBody),
        retryAfter: braveRetryAfter,
      });
      return (body.web?.results ?? [])
        .slice(0, count)
        .map((result) => toSearchResult({ title: result.title, url: result.url, snippet: result.description, dates: [result.page_age, result.age] }));
    },
  };
}

/** Whether a Brave error says the plan's quota is used up (a `QUOTA_…` code, or `quota_current` at `quota_limit`): no retry helps. */
function isQuotaExhausted(body: unknown): boolean {
  const parsed = braveErrorSchema().safeParse(body);
  if (!parsed.success) return false;
  const { code, meta } = parsed.data.error;
  if (code?.includes('QUOTA') === true) return true;
  const limit = meta?.quota_limit;
  const current = meta?.quota_current;
  return typeof limit === 'number' && typeof current === 'number' && limit > 0 && current >= limit;
}

/**
 * Brave's wait hint in ms: `Retry-After` when sent, else its documented rate-limit headers — for every
 * window whose `X-RateLimit-Remaining` is 0, its `X-RateLimit-Reset` (seconds); the longest of those.
 * Undefined (so the jittered backoff applies) when the headers are missing or unreadable, as on a
 * gateway's 502 or a bare 429: a missing header means "unknown", not 0.
 */
function braveRetryAfter(headers: Headers): number | undefined {
  const retryAfter = parseRetryAfter(headers.get('retry-after'));
  if (retryAfter !== undefined) return retryAfter;
  const remaining = headerNumbers(headers.get('x-ratelimit-remaining'));
  const reset = headerNumbers(headers.get('x-ratelimit-reset'));
  let longest: number | undefined;
  remaining.forEach((left, index) => {
    const seconds = reset[index];
    if (left === 0 && seconds !== undefined) longest = Math.max(longest ?? 0, seconds * 1000);
  });
  return longest;
}

/** The comma-separated numbers of a rate-limit header; a missing, empty or non-numeric entry is undefined. */
function headerNumbers(value: string | null): Array<number | undefined> {
  if (value === null) return [];
  return value.split(',').map((entry) => {
    const trimmed = entry.trim();
    if (!/^\d+(\.\d+)?$/.test(trimmed)) return undefined;
    return Number(trimmed);
  });
}

function describeBraveFailure(status: number, body: unknown): ProviderFailure {
  const parsed = braveErrorSchema().safeParse(body);
  const code = parsed.success ? (parsed.data.error.code ?? '') : '';
  const detail = parsed.success && parsed.data.error.detail !== undefined ? ` (${code || 'error'}: ${parsed.data.error.detail})` : '';
  if (status === 401 || status === 403 || code.startsWith('SUBSCRIPTION_TOKEN')) {
    return { code: 'search_auth_failed', message: `Brave Search rejected the API key, HTTP ${status}${detail}. Check BRAVE_API_KEY.` };
  }
  if (isQuotaExhausted(body)) {
    return { code: 'search_quota_exceeded', message: `Brave Search quota is used up, HTTP ${status}${detail}. Upgrade the plan or wait for the quota to reset.` };
  }
  if (status === 429) {
    return { code: 'search_rate_limited', message: `Brave Search is rate limiting this key, HTTP 429${detail}.` };
  }
  if (status === 400 || status === 422) {
    return { code: 'search_bad_request', message: `Brave Search refused the request, HTTP ${status}${detail}. Try a shorter or simpler query.` };
  }
  return { code: 'search_provider_error', message: `Brave Search failed, HTTP ${status}${detail}.` };
}
