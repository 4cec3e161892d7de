/**
 * The error an aborted operation rejects with: the signal's reason when it is already an `AbortError`,
 * else a `DOMException` named `AbortError` (what `fetch` and the `openai` SDK's callers expect).
 */
export function abortError(signal: AbortSignal | undefined, message = 'The operation was aborted.'): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException(message, 'AbortError');
}

/** Whether `error` is an abort (an `AbortError` by name, as `fetch`, `DOMException` and the SDK throw it). */
export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}
