import { z } from 'zod';
import { endpointURL } from './endpoint-url.js';
import { WebConfigError } from './errors.js';
import { normaliseDate, plainText } from './plain-text.js';
import { resolveRetryOptions, type RetryOptions } from './retry-policy.js';
import { retryAfterText, sendProviderRequest, type ProviderFailure } from './send-provider-request.js';
import type { WebSearchProvider, WebSearchResult } from './web-search-provider.js';

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
const braveResponseSchema = z.object({
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
});

const braveErrorSchema = z.object({
  error: z.object({ code: z.string().optional(), detail: z.string().optional(), status: z.number().optional() }),
});

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
        schema: braveResponseSchema,
        describeFailure: describeBraveFailure,
      });
      return (body.web?.results ?? []).slice(0, count).map((result): WebSearchResult => {
        const published = normaliseDate(result.page_age) ?? normaliseDate(result.age);
        return {
          title: plainText(result.title),
          url: result.url,
          snippet: plainText(result.description ?? ''),
          ...(published === undefined ? {} : { published }),
        };
      });
    },
  };
}

function describeBraveFailure(status: number, body: unknown, retryAfterMs: number | undefined): ProviderFailure {
  const parsed = braveErrorSchema.safeParse(body);
  const code = parsed.success ? (parsed.data.error.code ?? '') : '';
  const detail = parsed.success && parsed.data.error.detail !== undefined ? ` (${code || 'error'}: ${parsed.data.error.detail})` : '';
  if (status === 401 || status === 403 || code.startsWith('SUBSCRIPTION_TOKEN')) {
    return { code: 'search_auth_failed', message: `Brave Search rejected the API key, HTTP ${status}${detail}. Check BRAVE_API_KEY.` };
  }
  if (code.includes('QUOTA')) {
    return { code: 'search_quota_exceeded', message: `Brave Search quota is used up, HTTP ${status}${detail}.${retryAfterText(retryAfterMs)}` };
  }
  if (status === 429) {
    return { code: 'search_rate_limited', message: `Brave Search is rate limiting this key, HTTP 429${detail}; retries did not get through before the deadline.${retryAfterText(retryAfterMs)}` };
  }
  if (status === 400 || status === 422) {
    return { code: 'search_bad_request', message: `Brave Search refused the request, HTTP ${status}${detail}. Try a shorter or simpler query.` };
  }
  return { code: 'search_provider_error', message: `Brave Search failed, HTTP ${status}${detail}.` };
}
