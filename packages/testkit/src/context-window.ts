import type { ApiErrorBody } from './api-error.js';

/**
 * How the testkit counts a request's tokens: the characters of its JSON divided by 4, rounded up (about what
 * a tokenizer gives for English and code). The same count is reported as `usage.input_tokens`, checked against
 * `contextWindow`, and answered by `POST /v1/responses/input_tokens`.
 */
export function estimateTokens(value: unknown): number {
  if (value === undefined || value === null) return 0;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return Math.ceil(text.length / 4);
}

/**
 * The tokens a request puts in the model's context: its `instructions` and `input`, plus `prior` (the context
 * of the stored response named by `previous_response_id`, which the API prepends).
 */
export function requestContextTokens(body: Record<string, unknown>, prior = 0): number {
  return prior + estimateTokens(body.input) + estimateTokens(body.instructions);
}

/**
 * The API's 400 for a request longer than the model's context window, exactly as the Responses API words it
 * (it does not say the sizes): `{ error: { message: 'Your input exceeds the context window of this model. Please
 * adjust your input and try again.', type: 'invalid_request_error', param: 'input', code: 'context_length_exceeded' } }`.
 */
export function contextLengthExceeded(): ApiErrorBody {
  return {
    error: {
      message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
      type: 'invalid_request_error',
      param: 'input',
      code: 'context_length_exceeded',
    },
  };
}
