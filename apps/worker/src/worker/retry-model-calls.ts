import type { ModelGateway } from '@core/runtime';
import { isTransientModelFailure } from '../model-failure.js';

/** How a worker retries a model call that failed for a passing reason. */
export interface ModelRetryPolicy {
  /** Most tries of one model call, the first included (default 6; 1 turns retries off). */
  attempts?: number;
  /** The pause before the second try; each later pause doubles it (default 1000 ms). */
  baseDelayMs?: number;
  /** The longest pause (default 30 000 ms). */
  maxDelayMs?: number;
}

/** One retry about to happen, for logs. */
export interface ModelRetry {
  /** The try that failed (1 for the first). */
  attempt: number;
  /** Most tries. */
  attempts: number;
  /** The pause before the next try. */
  delayMs: number;
  /** What the failed try threw. */
  error: unknown;
}

/**
 * The gateway with transient failures of a model call (connection refused or reset, timeout, HTTP 429, HTTP 5xx, a
 * stream cut before any text reached the caller) retried in place after a pause that doubles each time (a full
 * jitter of up to a quarter), at most `attempts` tries; then the last error is thrown, so the turn fails with it.
 * Retrying one model call (not the whole turn) repeats no tool call and keeps the conversation valid. An abort of
 * the call's signal ends a pause at once (the abort error is thrown). Any other failure is thrown at once.
 */
export function retryModelCalls(gateway: ModelGateway, policy: ModelRetryPolicy & { onRetry?: (retry: ModelRetry) => void } = {}): ModelGateway {
  const attempts = Math.max(1, policy.attempts ?? 6);
  const baseDelayMs = policy.baseDelayMs ?? 1000;
  const maxDelayMs = policy.maxDelayMs ?? 30_000;
  return {
    get usesPreviousResponseId() {
      return gateway.usesPreviousResponseId;
    },
    get model() {
      return gateway.model;
    },
    get endpoint() {
      return gateway.endpoint;
    },
    ...(gateway.compact === undefined ? {} : { compact: gateway.compact.bind(gateway) }),
    async createResponse(request, callOptions) {
      for (let attempt = 1; ; attempt += 1) {
        let streamedText = false;
        const options =
          callOptions?.onTextDelta === undefined
            ? callOptions
            : {
                ...callOptions,
                onTextDelta: (...args: Parameters<NonNullable<typeof callOptions.onTextDelta>>) => {
                  streamedText = true;
                  callOptions.onTextDelta!(...args);
                },
              };
        try {
          return await gateway.createResponse(request, options);
        } catch (error) {
          const signal = callOptions?.signal;
          if (attempt >= attempts || streamedText || signal?.aborted === true || !isTransientModelFailure(error)) throw error;
          const delayMs = Math.round(Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)) * (1 + Math.random() / 4));
          policy.onRetry?.({ attempt, attempts, delayMs, error });
          await pause(delayMs, signal);
        }
      }
    },
  };
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(abortReason(signal));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    function onAbort() {
      clearTimeout(timer);
      reject(abortReason(signal!));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error && reason.name === 'AbortError' ? reason : new DOMException('The model call was aborted.', 'AbortError');
}
