/** One search hit, normalised from a provider's answer. */
export interface WebSearchResult {
  title: string;
  url: string;
  /** A short text excerpt (plain text, no markup). */
  snippet: string;
  /** When the page was published or last changed, as the provider gives it (`2025-01-15`, `3 days ago`). */
  published?: string;
}

/** What a provider receives besides the query. */
export interface WebSearchRequestOptions {
  /** How many results to ask for (the provider may return fewer). */
  count: number;
  /** Aborted when the call is cancelled or its deadline passes. */
  signal: AbortSignal;
  /** Epoch ms after which no retry starts (default: none besides `signal`). */
  deadline?: number;
}

/**
 * A web search backend. `search` resolves with the hits, or rejects with a `WebSearchError`
 * (auth, quota, rate limit, provider error, invalid answer, timeout) for the tool to report.
 */
export interface WebSearchProvider {
  /** A short stable name (`brave`, `tavily`, `searxng`). */
  readonly name: string;
  search(query: string, options: WebSearchRequestOptions): Promise<WebSearchResult[]>;
}
