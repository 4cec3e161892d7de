import { ModelGatewayError, type ModelGateway } from '@core/runtime';

/** Where a turn's model lives (for messages). */
export interface ModelEndpoint {
  /** The API root, e.g. `https://api.openai.com/v1`. */
  baseURL: string;
  model: string;
  /** Where the base URL was set, as messages name it (default `OPENAI_BASE_URL`; e.g. `baseURL in ~/.config/ankole/config.json`). */
  baseURLFrom?: string | undefined;
}

/** Fields of an error (or its causes) that tell what the endpoint did. */
interface ErrorFacts {
  status?: number;
  /** A system error code (`ECONNREFUSED`) or the gateway's code (`model_connection_failed`). */
  code?: string;
  message: string;
  /** The message of the innermost cause (`connect ECONNREFUSED 127.0.0.1:4000`). */
  rootMessage?: string;
  /** The endpoint's own explanation (the `error.message` of an API error body). */
  apiMessage?: string;
}

function facts(error: unknown): ErrorFacts {
  const found: ErrorFacts = { message: error instanceof Error ? error.message : String(error) };
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    const record = current as { status?: unknown; code?: unknown; cause?: unknown; error?: unknown };
    if (found.status === undefined && typeof record.status === 'number') found.status = record.status;
    if (typeof record.code === 'string') found.code ??= record.code;
    const body = record.error as { message?: unknown } | undefined;
    if (found.apiMessage === undefined && typeof body === 'object' && body !== null && typeof body.message === 'string') found.apiMessage = body.message;
    if (current instanceof Error) found.rootMessage = current.message;
    current = record.cause;
  }
  return found;
}

/** Gateway codes of failures that may pass: the same request can succeed a little later. */
const TRANSIENT_CODES = new Set(['model_connection_failed', 'model_timeout', 'model_rate_limited', 'model_server_error', 'model_stream_interrupted']);

/**
 * Whether a model call failed for a reason that may pass (connection refused or reset, timeout, HTTP 429, HTTP 5xx,
 * a stream cut off): worth trying again after a pause. A refused key, a bad request, an unknown model or an abort
 * are not.
 */
export function isTransientModelFailure(error: unknown): boolean {
  if (error === undefined || isAbortError(error)) return false;
  const { status, code, message } = facts(error);
  if (status !== undefined) return status === 408 || status === 429 || status >= 500;
  if (code !== undefined && TRANSIENT_CODES.has(code)) return true;
  return /ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|socket hang up|fetch failed/i.test(message);
}

/**
 * One sentence that tells the user why the model endpoint failed and what to do: a refused key, an
 * unknown model, an unreachable server, or the endpoint's own message. The one wording of a model-endpoint
 * failure: `ankole run`, its `--json` events and the worker's job and task failures all use it (through
 * `describeModelFailures`).
 */
export function describeModelFailure(error: unknown, fallbackMessage: string | undefined, endpoint: ModelEndpoint): string {
  const found = error === undefined ? { message: fallbackMessage ?? 'unknown error' } : facts(error);
  const { status, code, message } = found;
  const where = `the model endpoint ${endpoint.baseURL}`;
  const detail = 'apiMessage' in found && found.apiMessage !== undefined ? ` (${stripPeriod(found.apiMessage)})` : '';
  if (status === 401) return `The API key was refused by ${where} (HTTP 401): check OPENAI_API_KEY.`;
  if (status === 403) return `${capitalize(where)} denied access (HTTP 403): check that OPENAI_API_KEY may use model ${endpoint.model}.`;
  if (status === 404) return `${capitalize(where)} answered 404: check ${endpoint.baseURLFrom ?? 'OPENAI_BASE_URL'} (it should end in /v1) and the model name ${endpoint.model}.`;
  if (status === 429) return `${capitalize(where)} kept rate-limiting the requests (HTTP 429${detail}): wait and try again, or check your quota.`;
  if (status !== undefined && status >= 500) return `${capitalize(where)} failed with HTTP ${status}${detail}: try again later.`;
  if (status !== undefined) return `${capitalize(where)} refused the request with HTTP ${status}${detail === '' ? `: ${firstSentence(message)}` : `${detail}.`}`;
  if (code === 'model_connection_failed' || code === 'model_timeout' || /ECONNREFUSED|ENOTFOUND|fetch failed|timed out/i.test(message)) {
    const root = 'rootMessage' in found ? found.rootMessage : undefined;
    const shown = root === undefined || root === message ? '' : ` (${stripPeriod(root)})`;
    const what = code === 'model_timeout' ? `${capitalize(where)} did not answer in time` : `Could not reach ${where}${shown}`;
    return `${what}: check ${endpoint.baseURLFrom ?? 'OPENAI_BASE_URL'} and your network.`;
  }
  if (message.includes(endpoint.baseURL)) return firstSentence(message);
  return `${capitalize(where)} failed: ${firstSentence(message)}`;
}

/**
 * The gateway with every model-endpoint failure it throws reworded by `describeModelFailure` (a
 * `ModelGatewayError` with the same code and status, the original as `cause`), so the turn's end event, the
 * CLI's failure line and a job's stored error say the same thing. Aborts pass through unchanged.
 */
export function describeModelFailures(gateway: ModelGateway, endpoint: ModelEndpoint): ModelGateway {
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
      try {
        return await gateway.createResponse(request, callOptions);
      } catch (error) {
        if (isAbortError(error) || callOptions?.signal?.aborted === true || !(error instanceof ModelGatewayError)) throw error;
        throw new ModelGatewayError(describeModelFailure(error, undefined, endpoint), {
          code: error.code,
          ...(error.status === undefined ? {} : { status: error.status }),
          cause: error,
        });
      }
    },
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function stripPeriod(text: string): string {
  return text.trim().replace(/\.$/, '');
}

function firstSentence(text: string): string {
  const line = text.split('\n')[0]?.trim() ?? '';
  const clipped = line.length > 240 ? `${line.slice(0, 240)}…` : line;
  return /[.!?]$/.test(clipped) ? clipped : `${clipped}.`;
}

/** Whether `error` is an abort (an `AbortError` by name, as `fetch`, `DOMException` and the SDK throw it). */
function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}
