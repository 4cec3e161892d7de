import type { z } from 'zod';
import { WebSearchError, type WebSearchErrorCode } from './errors.js';
import { giveUpText, type ProviderGiveUp } from './give-up-text.js';
import { parseJson } from './parse-json.js';
import { isRetryableStatus, parseRetryAfter, retryDelay, type ResolvedRetryOptions } from './retry-policy.js';

/** What a failed provider answer means, as the adapter reads it. */
export interface ProviderFailure {
  code: WebSearchErrorCode;
  message: string;
}

/** One HTTP call to a search provider, retried on 429/5xx/network errors within the deadline. */
export interface ProviderRequest<TSchema extends z.ZodType> {
  /** The provider's short name (`brave`). */
  provider: string;
  /** The provider's display name (`Brave Search`) for messages. */
  label: string;
  url: URL;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  deadline: number | undefined;
  retry: ResolvedRetryOptions;
  /** The documented success body. */
  schema: TSchema;
  /**
   * Reads a non-2xx answer (after retries) into an error code and a message saying what the provider
   * answered; the message is completed with what happened to the retries and when to try again.
   */
  describeFailure: (status: number, body: unknown) => ProviderFailure;
  /** Whether a non-2xx answer is worth retrying (default: 429 and 5xx); e.g. a used-up quota is not. */
  isRetryable?: (status: number, body: unknown) => boolean;
  /** How long the provider asks to wait, in ms (default: the `Retry-After` header). */
  retryAfter?: (headers: Headers) => number | undefined;
}

/**
 * Sends the request, retrying 429, 5xx and network errors with exponential backoff and jitter
 * (honouring Retry-After) while the deadline and the signal allow, and validates the JSON body.
 * A failure's message says whether a retry was made (or how many attempts before giving up, and why)
 * and when to try again when the provider said.
 * @throws WebSearchError for every failure: auth, quota, rate limit, provider error, invalid body, network, timeout, abort.
 */
export async function sendProviderRequest<TSchema extends z.ZodType>(request: ProviderRequest<TSchema>): Promise<z.output<TSchema>> {
  const { provider, label, retry, signal } = request;
  for (let attempt = 1; ; attempt += 1) {
    throwIfAborted(request);
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal,
        redirect: 'follow',
      });
    } catch (error) {
      throwIfAborted(request, error);
      const stop = await waitBeforeRetry(request, attempt, undefined);
      if (stop === undefined) continue;
      const ending = giveUpText({ attempts: attempt, reason: stop, retryAfterMs: undefined, maxDelayMs: retry.maxDelayMs, answered: false });
      throw new WebSearchError('search_network_error', provider, `${label} could not be reached at ${request.url.origin}: ${errorText(error)}. Check the network or the provider's base URL.${ending}`, { cause: error });
    }

    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throwIfAborted(request, error);
      throw new WebSearchError('search_network_error', provider, `${label} closed the connection while answering: ${errorText(error)}.`, { cause: error, status: response.status });
    }

    if (response.ok) {
      const parsed = parseJson(text);
      if (!parsed.ok) {
        throw new WebSearchError('search_response_invalid', provider, `${label} answered HTTP ${response.status} with a body that is not JSON (${parsed.message}).`, { status: response.status });
      }
      const checked = request.schema.safeParse(parsed.value);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        const where = issue === undefined ? '' : ` at ${issue.path.join('.') || '(root)'}: ${issue.message}`;
        throw new WebSearchError('search_response_invalid', provider, `${label} answered in an unexpected shape${where}.`, { status: response.status, cause: checked.error });
      }
      return checked.data;
    }

    const parsedBody = parseJson(text);
    const body = parsedBody.ok ? parsedBody.value : text;
    const retryAfterMs = request.retryAfter === undefined ? parseRetryAfter(response.headers.get('retry-after')) : request.retryAfter(response.headers);
    const retryable = request.isRetryable === undefined ? isRetryableStatus(response.status) : request.isRetryable(response.status, body);
    const stop = retryable ? await waitBeforeRetry(request, attempt, retryAfterMs) : 'final';
    if (stop === undefined) continue;
    const failure = request.describeFailure(response.status, body);
    const ending = giveUpText({ attempts: attempt, reason: stop, retryAfterMs, maxDelayMs: retry.maxDelayMs, answered: true });
    throw new WebSearchError(failure.code, provider, `${failure.message}${ending}`, { status: response.status });
  }
}

/** Waits for the next attempt; when none will be made, says why instead. */
async function waitBeforeRetry<TSchema extends z.ZodType>(request: ProviderRequest<TSchema>, attempt: number, retryAfterMs: number | undefined): Promise<ProviderGiveUp['reason'] | undefined> {
  const { retry } = request;
  if (attempt >= retry.maxAttempts) return 'attempts_used';
  if (retryAfterMs !== undefined && retryAfterMs > retry.maxDelayMs) return 'wait_too_long';
  const delay = retryDelay(attempt, retryAfterMs, retry);
  if (request.deadline !== undefined && Date.now() + delay >= request.deadline) return 'deadline';
  try {
    await retry.sleep(delay, request.signal);
  } catch (error) {
    throwIfAborted(request, error);
    throw error;
  }
  return undefined;
}

function throwIfAborted<TSchema extends z.ZodType>(request: ProviderRequest<TSchema>, cause?: unknown): void {
  const { signal, provider, label } = request;
  if (!signal.aborted) return;
  if (isTimeout(signal.reason)) {
    throw new WebSearchError('search_timeout', provider, `${label} did not answer before the search deadline.`, { cause: cause ?? signal.reason });
  }
  throw new WebSearchError('search_aborted', provider, `The ${label} request was cancelled.`, { cause: cause ?? signal.reason });
}

/** Whether an abort reason is a timeout (AbortSignal.timeout's TimeoutError or the runtime's tool timeout). */
export function isTimeout(reason: unknown): boolean {
  if (typeof reason !== 'object' || reason === null) return false;
  const { name, code } = reason as { name?: unknown; code?: unknown };
  return name === 'TimeoutError' || name === 'ToolTimeoutError' || code === 'tool_timeout';
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message !== '') return `${error.message} (${cause.message})`;
  return error.message;
}
