/** Fields of an error (or its causes) that tell what the endpoint did. */
interface ErrorFacts {
  status?: number;
  /** A system error code (`ECONNREFUSED`) or the gateway's code (`model_connection_failed`). */
  code?: string;
  message: string;
  /** The message of the innermost cause (`connect ECONNREFUSED 127.0.0.1:4000`). */
  rootMessage?: string;
}

function facts(error: unknown): ErrorFacts {
  const found: ErrorFacts = { message: error instanceof Error ? error.message : String(error) };
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    const record = current as { status?: unknown; code?: unknown; cause?: unknown };
    if (found.status === undefined && typeof record.status === 'number') found.status = record.status;
    if (typeof record.code === 'string') found.code ??= record.code;
    if (current instanceof Error) found.rootMessage = current.message;
    current = record.cause;
  }
  return found;
}

/**
 * One sentence that tells the user why the model endpoint failed and what to do: a refused key, an
 * unknown model, an unreachable server, or the endpoint's own message.
 */
export function describeModelFailure(error: unknown, fallbackMessage: string | undefined, endpoint: { baseURL: string; model: string }): string {
  const { status, code, message } = error === undefined ? { message: fallbackMessage ?? 'unknown error' } : facts(error);
  const where = `the model endpoint ${endpoint.baseURL}`;
  if (status === 401) return `The API key was refused by ${where} (HTTP 401): check OPENAI_API_KEY.`;
  if (status === 403) return `${capitalize(where)} denied access (HTTP 403): check that OPENAI_API_KEY may use model ${endpoint.model}.`;
  if (status === 404) return `${capitalize(where)} answered 404: check OPENAI_BASE_URL (it should end in /v1) and the model name ${endpoint.model}.`;
  if (status === 429) return `${capitalize(where)} kept rate-limiting the requests (HTTP 429): wait and try again, or check your quota.`;
  if (status !== undefined) return `${capitalize(where)} failed with HTTP ${status}: ${firstSentence(message)}`;
  if (code === 'model_connection_failed' || code === 'model_timeout' || /ECONNREFUSED|ENOTFOUND|fetch failed|timed out/i.test(message)) {
    const detail = facts(error).rootMessage;
    return `Could not reach ${where}${detail === undefined ? '' : ` (${detail})`}: check OPENAI_BASE_URL and your network.`;
  }
  return `${capitalize(where)} failed: ${firstSentence(message)}`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function firstSentence(text: string): string {
  const line = text.split('\n')[0]?.trim() ?? '';
  const clipped = line.length > 240 ? `${line.slice(0, 240)}…` : line;
  return /[.!?]$/.test(clipped) ? clipped : `${clipped}.`;
}
