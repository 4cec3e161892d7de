import { RuntimeFailure, UsageError } from '@core/runtime';

/** Stable codes of {@link WebSearchError}. */
export type WebSearchErrorCode =
  | 'search_auth_failed'
  | 'search_quota_exceeded'
  | 'search_rate_limited'
  | 'search_bad_request'
  | 'search_provider_error'
  | 'search_response_invalid'
  | 'search_network_error'
  | 'search_timeout'
  | 'search_aborted';

/** A search provider call failed: auth, quota, rate limit, a provider error, a malformed answer, the network or the deadline. */
export class WebSearchError extends RuntimeFailure {
  declare readonly code: WebSearchErrorCode;
  /** The provider's name (`brave`, `tavily`, `searxng`, ...). */
  readonly provider: string;
  /** The last HTTP status the provider answered, if any. */
  readonly status: number | undefined;

  constructor(
    code: WebSearchErrorCode,
    provider: string,
    message: string,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(code, message, { cause: options.cause });
    this.provider = provider;
    this.status = options.status;
  }
}

/** Stable codes of {@link WebFetchError}. */
export type WebFetchErrorCode =
  | 'fetch_url_invalid'
  | 'fetch_blocked'
  | 'fetch_dns_failed'
  | 'fetch_too_many_redirects'
  | 'fetch_timeout'
  | 'fetch_aborted'
  | 'fetch_failed';

/** A web_fetch request could not be made or completed: a bad or refused URL, DNS, redirects, timeout, the network. */
export class WebFetchError extends RuntimeFailure {
  declare readonly code: WebFetchErrorCode;
  /** The URL being fetched when it failed (the redirect hop, not always the first URL). */
  readonly url: string;

  constructor(code: WebFetchErrorCode, url: string, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
    this.url = url;
  }
}

/** The web tools were configured wrongly (an unknown provider, a bad URL, a missing key). */
export class WebConfigError extends UsageError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('web_config_invalid', message, options);
  }
}
