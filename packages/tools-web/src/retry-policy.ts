/** How a provider request is retried on 429, 5xx and network errors. */
export interface RetryOptions {
  /** Attempts in total, the first included (default 4). */
  maxAttempts?: number;
  /** The first backoff step in ms (default 500); doubles per attempt. */
  baseDelayMs?: number;
  /** The largest backoff in ms, Retry-After included (default 10_000). */
  maxDelayMs?: number;
  /** A number in [0, 1) for the jitter (default `Math.random`). */
  random?: () => number;
  /** Waits `ms` unless the signal aborts (default: a timer). Injected by tests to record delays. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** The retry options with every default filled in. */
export type ResolvedRetryOptions = Required<RetryOptions>;

/** Fills the defaults of {@link RetryOptions}. */
export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  return {
    maxAttempts: Math.max(1, options.maxAttempts ?? 4),
    baseDelayMs: options.baseDelayMs ?? 500,
    maxDelayMs: options.maxDelayMs ?? 10_000,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? sleepWithSignal,
  };
}

/**
 * The delay before retry number `attempt` (1 for the first retry): the server's Retry-After when
 * it gave one, otherwise exponential backoff with jitter (a random point in the upper half of `base * 2^(attempt-1)`),
 * both capped at `maxDelayMs`.
 */
export function retryDelay(attempt: number, retryAfterMs: number | undefined, options: ResolvedRetryOptions): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, options.maxDelayMs);
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling * (0.5 + options.random() / 2));
}

/** Parses a Retry-After header (delta seconds or an HTTP date) into ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Whether an HTTP status is worth retrying (429 and 5xx). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

function sleepWithSignal(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
