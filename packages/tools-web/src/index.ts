export { createWebTools } from './create-web-tools.js';
export type { WebProfile } from './web-profile.js';
export { webProfileFromEnv } from './web-profile-from-env.js';
export type { WebProfileFromEnvOptions } from './web-profile-from-env.js';

export { createWebSearchTool } from './web-search-tool.js';
export type { WebSearchDetails, WebSearchParams, WebSearchSettings } from './web-search-tool.js';
export type { WebSearchProvider, WebSearchRequestOptions, WebSearchResult } from './web-search-provider.js';
export { createBraveSearchProvider } from './brave-search-provider.js';
export type { BraveSearchProviderOptions } from './brave-search-provider.js';
export { createTavilySearchProvider } from './tavily-search-provider.js';
export type { TavilySearchProviderOptions } from './tavily-search-provider.js';
export { createSearxngSearchProvider } from './searxng-search-provider.js';
export type { SearxngSearchProviderOptions } from './searxng-search-provider.js';
export type { RetryOptions } from './retry-policy.js';
export { formatSearchResults } from './format-search-results.js';

export { createWebFetchTool } from './web-fetch-tool.js';
export type { WebFetchDetails, WebFetchParams, WebFetchSettings } from './web-fetch-tool.js';
export { htmlToMarkdown } from './html-to-markdown.js';
export type { HtmlMarkdown, HtmlToMarkdownOptions } from './html-to-markdown.js';
export { systemLookup } from './vet-host.js';
export type { HostLookup, ResolvedAddress } from './vet-host.js';

export { WebConfigError, WebFetchError, WebSearchError } from './errors.js';
export type { WebFetchErrorCode, WebSearchErrorCode } from './errors.js';
