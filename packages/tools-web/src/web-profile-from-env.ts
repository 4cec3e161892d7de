import { createBraveSearchProvider } from './brave-search-provider.js';
import { WebConfigError } from './errors.js';
import type { RetryOptions } from './retry-policy.js';
import { createSearxngSearchProvider } from './searxng-search-provider.js';
import { createTavilySearchProvider } from './tavily-search-provider.js';
import type { WebFetchSettings } from './web-fetch-tool.js';
import type { WebProfile } from './web-profile.js';
import type { WebSearchProvider } from './web-search-provider.js';
import type { WebSearchSettings } from './web-search-tool.js';

/** Settings merged into the profile {@link webProfileFromEnv} builds. */
export interface WebProfileFromEnvOptions {
  searchSettings?: WebSearchSettings;
  fetch?: WebFetchSettings;
  retry?: RetryOptions;
}

const PROVIDERS = ['brave', 'tavily', 'searxng'] as const;

/**
 * Builds a web profile from environment variables (pass `process.env` explicitly):
 * - `WEB_SEARCH_PROVIDER` = `brave` | `tavily` | `searxng` | `none`; unset: the first configured of
 *   `BRAVE_API_KEY`, `TAVILY_API_KEY`, `SEARXNG_URL` (in that order);
 * - `BRAVE_BASE_URL`, `TAVILY_BASE_URL` override the provider endpoints;
 * - `WEB_FETCH` = `true` | `false` (default: on when a search provider is bound);
 * - `WEB_FETCH_ALLOW_HOSTS` = comma-separated hosts that skip the private-address refusal.
 * Returns undefined when neither search nor fetch is configured (so there are no web tools).
 * @throws WebConfigError for an unknown provider, a chosen provider without its key or URL, or an unreadable WEB_FETCH.
 */
export function webProfileFromEnv(env: Record<string, string | undefined>, options: WebProfileFromEnvOptions = {}): WebProfile | undefined {
  const search = searchProviderFromEnv(env, options.retry);
  const fetchEnabled = readBoolean(env, 'WEB_FETCH') ?? search !== undefined;
  if (search === undefined && !fetchEnabled) return undefined;
  const allowHosts = (env.WEB_FETCH_ALLOW_HOSTS ?? '')
    .split(',')
    .map((host) => host.trim())
    .filter((host) => host !== '');
  const profile: WebProfile = {};
  if (search !== undefined) profile.search = search;
  if (options.searchSettings !== undefined) profile.searchSettings = options.searchSettings;
  if (fetchEnabled) {
    const extraHosts = options.fetch?.allowHosts ?? [];
    profile.fetch = { ...options.fetch, allowHosts: [...extraHosts, ...allowHosts] };
  }
  return profile;
}

function searchProviderFromEnv(env: Record<string, string | undefined>, retry: RetryOptions | undefined): WebSearchProvider | undefined {
  const chosen = nonEmpty(env.WEB_SEARCH_PROVIDER)?.toLowerCase();
  if (chosen === 'none') return undefined;
  if (chosen !== undefined && !(PROVIDERS as readonly string[]).includes(chosen)) {
    throw new WebConfigError(`WEB_SEARCH_PROVIDER=${JSON.stringify(env.WEB_SEARCH_PROVIDER)} is not a known provider; use one of ${PROVIDERS.join(', ')} or none.`);
  }
  const brave = nonEmpty(env.BRAVE_API_KEY);
  const tavily = nonEmpty(env.TAVILY_API_KEY);
  const searxng = nonEmpty(env.SEARXNG_URL);
  const provider = chosen ?? (brave !== undefined ? 'brave' : tavily !== undefined ? 'tavily' : searxng !== undefined ? 'searxng' : undefined);
  switch (provider) {
    case 'brave':
      if (brave === undefined) throw new WebConfigError('WEB_SEARCH_PROVIDER=brave needs BRAVE_API_KEY.');
      return createBraveSearchProvider({ apiKey: brave, ...optionalBase(env.BRAVE_BASE_URL), ...(retry === undefined ? {} : { retry }) });
    case 'tavily':
      if (tavily === undefined) throw new WebConfigError('WEB_SEARCH_PROVIDER=tavily needs TAVILY_API_KEY.');
      return createTavilySearchProvider({ apiKey: tavily, ...optionalBase(env.TAVILY_BASE_URL), ...(retry === undefined ? {} : { retry }) });
    case 'searxng':
      if (searxng === undefined) throw new WebConfigError('WEB_SEARCH_PROVIDER=searxng needs SEARXNG_URL (the instance base URL).');
      return createSearxngSearchProvider({ baseURL: searxng, ...(retry === undefined ? {} : { retry }) });
    default:
      return undefined;
  }
}

function optionalBase(value: string | undefined): { baseURL?: string } {
  const base = nonEmpty(value);
  return base === undefined ? {} : { baseURL: base };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function readBoolean(env: Record<string, string | undefined>, name: string): boolean | undefined {
  const value = nonEmpty(env[name])?.toLowerCase();
  if (value === undefined) return undefined;
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new WebConfigError(`${name}=${JSON.stringify(env[name])} is not a boolean; use true or false.`);
}
