import type { WebFetchSettings } from './web-fetch-tool.js';
import type { WebSearchProvider } from './web-search-provider.js';
import type { WebSearchSettings } from './web-search-tool.js';

/**
 * What a worker has bound for the web: a search provider (web_search exists only with one) and
 * whether fetching is enabled (web_fetch exists only then: `true` for the defaults, or its settings).
 */
export interface WebProfile {
  search?: WebSearchProvider;
  searchSettings?: WebSearchSettings;
  fetch?: boolean | WebFetchSettings;
}
