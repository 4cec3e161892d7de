/** The API's error body: `{ error: { message, type, param, code } }`. */
export interface ApiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** A 400 `invalid_request_error` body as the API answers it. */
export function invalidRequest(message: string, param: string | null = null, code: string | null = null): ApiErrorBody {
  return { error: { message, type: 'invalid_request_error', param, code } };
}
