import { RuntimeFailure, type AnkoleErrorOptions } from '../errors.js';

/**
 * A request that does not fit the model's context window even after its history was compacted (or when nothing
 * could compact it). `code` is `context_window_exceeded`; `requestTokens` is the request's estimated size and
 * `window` the model's input window, both in tokens.
 */
export class ContextWindowError extends RuntimeFailure {
  readonly requestTokens: number;
  readonly window: number;

  constructor(message: string, options: AnkoleErrorOptions & { requestTokens: number; window: number }) {
    super('context_window_exceeded', message, options);
    this.requestTokens = options.requestTokens;
    this.window = options.window;
  }
}

/**
 * Whether a model call was refused because the request is longer than the model's context window: the API's 400
 * `context_length_exceeded` (HTTP error or a failed response), anywhere in the error's `cause` chain.
 */
export function isContextLengthExceeded(error: unknown): boolean {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 6; depth += 1) {
    const record = current as { code?: unknown; message?: unknown; cause?: unknown; error?: unknown };
    if (record.code === 'context_length_exceeded') return true;
    const body = record.error as { code?: unknown } | undefined;
    if (typeof body === 'object' && body !== null && body.code === 'context_length_exceeded') return true;
    if (typeof record.message === 'string' && /context_length_exceeded|exceeds the context window/i.test(record.message)) return true;
    current = record.cause;
  }
  return false;
}
