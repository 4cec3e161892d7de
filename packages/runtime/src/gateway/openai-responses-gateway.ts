import OpenAI from 'openai';
import { abortError, isAbortError } from '../abort-error.js';
import { ModelGatewayError, UsageError } from '../errors.js';
import type {
  CompactedHistory,
  CompactRequest,
  MessagePhase,
  ModelCallOptions,
  ModelGateway,
  ModelRequest,
  ModelResponse,
  ResponseOutputItem,
} from './model-gateway.js';
import { compactThroughClient } from '../context/compact-through-client.js';
import { fromResponseUsage } from './usage.js';
import { describeThrown } from '../describe-thrown.js';
import { endSentence, withoutFinalPeriod } from './end-sentence.js';
import { replayableInput } from './to-input-items.js';

/** Options of `createOpenAIResponsesGateway`. */
export interface OpenAIResponsesGatewayOptions {
  /** A ready client; otherwise one is made from `apiKey` / `baseURL` (and the SDK's `OPENAI_API_KEY` / `OPENAI_BASE_URL`). */
  client?: OpenAI;
  apiKey?: string;
  baseURL?: string;
  model: string;
  /** `store` sent with each request (default false: stateless, full input each time; true with `previousResponseId`). */
  store?: boolean;
  /** Chain steps with `previous_response_id` instead of resending the input (implies `store: true`). */
  previousResponseId?: boolean;
  /** The SDK's retries on 408 / 409 / 429 / 5xx / connection errors (default: the client's, 2). */
  maxRetries?: number;
  /**
   * Per-request timeout in ms (default: the client's, 10 minutes): for the response headers (each attempt, the
   * SDK's) and again for the streamed body once it started, so a stream that stalls cannot hang the turn.
   */
  timeoutMs?: number;
  /**
   * Ask for `reasoning.encrypted_content` so reasoning items can be echoed back statelessly. Default: true when
   * `store` is false. Models without reasoning (gpt-4o, gpt-4.1) refuse it with a 400 "Encrypted content is not
   * supported with this model"; the gateway then retries the request once without it and stops asking.
   */
  includeEncryptedReasoning?: boolean;
  /**
   * Server-side compaction: sends `context_management: [{ type: 'compaction', compact_threshold }]` with every
   * request, so the server compacts the context once it passes `compactThreshold` tokens (at least 1000; omitted:
   * the server's default) and puts a `compaction` item in the output; `runAgentLoop` then drops the history before it.
   */
  contextManagement?: { compactThreshold?: number };
  /** Extra request fields (reasoning, temperature, max_output_tokens, tool_choice, ...). They cannot replace
   * `model`, `input`, `instructions`, `tools`, `store`, `stream` or `previous_response_id`. */
  requestOptions?: Record<string, unknown>;
}

type StreamEvent = OpenAI.Responses.ResponseStreamEvent;
type ApiResponse = OpenAI.Responses.Response;

const TERMINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** Longest delay `setTimeout` takes (a longer one would fire at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A `ModelGateway` on the official `openai` SDK's Responses API. Every request streams; text deltas go to
 * `onTextDelta`, each completed output item to `onOutputItemDone`, and the response is taken from the terminal event (`response.completed`,
 * `response.incomplete`, `response.failed`). Retries are the SDK's (429, 5xx, connection errors).
 * @throws UsageError when the options contradict each other (`previousResponseId` with `store: false`) or no
 *   client can be made (no API key).
 */
export function createOpenAIResponsesGateway(options: OpenAIResponsesGatewayOptions): ModelGateway {
  if (typeof options.model !== 'string' || options.model === '') {
    throw new UsageError('gateway_options_invalid', 'createOpenAIResponsesGateway: `model` must be a non-empty string (e.g. "gpt-5.4").');
  }
  const chain = options.previousResponseId === true;
  if (chain && options.store === false) {
    throw new UsageError(
      'gateway_options_invalid',
      'createOpenAIResponsesGateway: `previousResponseId: true` needs stored responses; drop `store: false` (it defaults to true in this mode).',
    );
  }
  const store = options.store ?? chain;
  const client = options.client ?? makeClient(options);
  let includeEncryptedReasoning = options.includeEncryptedReasoning ?? !store;
  const endpoint = options.baseURL ?? client.baseURL;

  async function createResponse(request: ModelRequest, callOptions: ModelCallOptions = {}): Promise<ModelResponse> {
    const signal = callOptions.signal;
    if (signal?.aborted) throw abortError(signal, 'The model call was aborted before it started.');
    try {
      return await streamOnce(request, callOptions, includeEncryptedReasoning);
    } catch (error) {
      if (includeEncryptedReasoning && refusesEncryptedContent(error)) {
        includeEncryptedReasoning = false;
        return streamOnce(request, callOptions, false);
      }
      throw error;
    }
  }

  async function streamOnce(request: ModelRequest, callOptions: ModelCallOptions, includeReasoning: boolean): Promise<ModelResponse> {
    const signal = callOptions.signal;
    const body = buildBody(request, includeReasoning);
    const outputByIndex = new Map<number, ResponseOutputItem>();
    const phaseByItem = new Map<string, MessagePhase>();
    let terminal: ApiResponse | undefined;
    let responseId = '';
    let streaming = false;
    // The SDK's timeout stops once the response headers arrive: a stream that stalls after them would hang the
    // turn. The body gets its own limit (the same timeoutMs), through a signal that also follows the caller's.
    const limit = new AbortController();
    const forwardAbort = () => limit.abort(signal?.reason);
    signal?.addEventListener('abort', forwardAbort, { once: true });
    const bodyTimeoutMs = options.timeoutMs ?? client.timeout;
    let bodyTimer: ReturnType<typeof setTimeout> | undefined;
    let timedOut = false;
    const streamTimeout = (cause: unknown) =>
      new ModelGatewayError(
        `The model stream from ${endpoint} did not complete within ${bodyTimeoutMs} ms after it started (timeoutMs). Try the turn again, or raise timeoutMs.`,
        { code: 'model_timeout', ...(cause === undefined ? {} : { cause }) },
      );
    try {
      const stream = await client.responses.create(body, {
        signal: limit.signal,
        ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
        ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
      });
      streaming = true;
      if (Number.isFinite(bodyTimeoutMs) && bodyTimeoutMs > 0 && bodyTimeoutMs <= MAX_TIMER_MS) {
        bodyTimer = setTimeout(() => {
          timedOut = true;
          limit.abort();
        }, bodyTimeoutMs);
      }
      for await (const event of stream as AsyncIterable<StreamEvent>) {
        if (event.type === 'response.output_text.delta') {
          const phase = phaseByItem.get(event.item_id);
          callOptions.onTextDelta?.(event.delta, phase === undefined ? { itemId: event.item_id } : { itemId: event.item_id, phase });
        } else if (event.type === 'response.output_item.added') {
          const phase = event.item.type === 'message' ? (event.item as { phase?: unknown }).phase : undefined;
          if (phase === 'commentary' || phase === 'final_answer') phaseByItem.set(event.item.id ?? '', phase);
        } else if (event.type === 'response.output_item.done') {
          outputByIndex.set(event.output_index, event.item);
          callOptions.onOutputItemDone?.(event.item, { responseId, outputIndex: event.output_index });
        } else if (event.type === 'response.created') {
          responseId = event.response.id;
        } else if (TERMINAL_EVENTS.has(event.type)) {
          terminal = (event as { response: ApiResponse }).response;
        }
      }
    } catch (error) {
      if (timedOut && signal?.aborted !== true) throw streamTimeout(error);
      if (signal?.aborted || isAbortError(error) || error instanceof OpenAI.APIUserAbortError) {
        throw abortError(signal, 'The model call was aborted.');
      }
      if (streaming && !(error instanceof OpenAI.APIError) && !(error instanceof SyntaxError)) {
        throw new ModelGatewayError(
          `The model stream from ${endpoint} was cut before the response was complete (${describeThrown(error)}). Try the turn again.`,
          { code: 'model_stream_interrupted', cause: error },
        );
      }
      throw toGatewayError(error, endpoint);
    } finally {
      clearTimeout(bodyTimer);
      signal?.removeEventListener('abort', forwardAbort);
    }
    if (signal?.aborted) throw abortError(signal, 'The model call was aborted.');
    // The SDK ends a stream quietly when its signal aborts.
    if (timedOut) throw streamTimeout(undefined);
    if (terminal === undefined) {
      throw new ModelGatewayError(
        `The model stream from ${endpoint} ended before the response was complete (no response.completed event): the connection was cut. Try the turn again.`,
        { code: 'model_stream_interrupted' },
      );
    }
    if (terminal.status === 'failed') {
      const detail = terminal.error === null || terminal.error === undefined ? 'no error detail' : `${terminal.error.code}: ${terminal.error.message}`;
      throw new ModelGatewayError(`The model response ${terminal.id} failed (${detail}).`, { code: 'model_response_failed' });
    }
    const output =
      Array.isArray(terminal.output) && terminal.output.length > 0
        ? terminal.output
        : [...outputByIndex.entries()].sort(([left], [right]) => left - right).map(([, item]) => item);
    const response: ModelResponse = { id: terminal.id, status: terminal.status ?? 'completed', output };
    const reason = terminal.incomplete_details?.reason;
    if (reason !== undefined && reason !== null) response.incompleteReason = reason;
    const usage = fromResponseUsage(terminal.usage);
    if (usage !== undefined) response.usage = usage;
    return response;
  }

  function buildBody(request: ModelRequest, includeReasoning: boolean): OpenAI.Responses.ResponseCreateParamsStreaming {
    const body: Record<string, unknown> = {};
    if (request.tools.length > 0) body.parallel_tool_calls = true;
    if (includeReasoning) body.include = ['reasoning.encrypted_content'];
    Object.assign(body, options.requestOptions);
    if (options.contextManagement !== undefined) {
      const threshold = options.contextManagement.compactThreshold;
      body.context_management = [{ type: 'compaction', ...(threshold === undefined ? {} : { compact_threshold: threshold }) }];
    }
    body.model = options.model;
    // Without stored responses, reasoning that has no encrypted_content cannot be replayed (the API answers 404).
    body.input = store ? request.input : replayableInput(request.input);
    if (request.instructions !== undefined) body.instructions = request.instructions;
    else delete body.instructions;
    if (request.tools.length > 0) body.tools = request.tools;
    else delete body.tools;
    body.store = store;
    body.stream = true;
    if (request.previousResponseId !== undefined) body.previous_response_id = request.previousResponseId;
    else delete body.previous_response_id;
    return body as unknown as OpenAI.Responses.ResponseCreateParamsStreaming;
  }

  /** `POST /responses/compact` on the same client; the history it returns replaces the input (and a stored chain). */
  async function compact(request: CompactRequest, callOptions: { signal?: AbortSignal } = {}): Promise<CompactedHistory> {
    const signal = callOptions.signal;
    if (signal?.aborted) throw abortError(signal, 'The compaction was aborted before it started.');
    const body: Record<string, unknown> & { model: string } = { model: options.model, input: store ? request.input : replayableInput(request.input) };
    if (request.instructions !== undefined) body.instructions = request.instructions;
    if (request.previousResponseId !== undefined) body.previous_response_id = request.previousResponseId;
    try {
      return await compactThroughClient(client, body, {
        ...(signal === undefined ? {} : { signal }),
        ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
        ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
      });
    } catch (error) {
      if (signal?.aborted || isAbortError(error) || error instanceof OpenAI.APIUserAbortError) throw abortError(signal, 'The compaction was aborted.');
      throw toGatewayError(error, endpoint);
    }
  }

  return { usesPreviousResponseId: chain, model: options.model, endpoint, createResponse, compact };
}

function makeClient(options: OpenAIResponsesGatewayOptions): OpenAI {
  try {
    return new OpenAI({
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
    });
  } catch (error) {
    throw new UsageError(
      'gateway_options_invalid',
      `createOpenAIResponsesGateway: could not create the OpenAI client (${describeThrown(error)}). Pass \`apiKey\` or set OPENAI_API_KEY, or pass a ready \`client\`.`,
      { cause: error },
    );
  }
}

function refusesEncryptedContent(error: unknown): boolean {
  if (!(error instanceof ModelGatewayError) || error.status !== 400) return false;
  const cause = error.cause;
  const param = cause instanceof OpenAI.APIError ? cause.param : undefined;
  return /encrypted content is not supported/i.test(error.message) && (param === undefined || param === null || param === 'include');
}

/** Maps anything the SDK throws to a `ModelGatewayError` with the HTTP status and a message saying what to do. */
export function toGatewayError(error: unknown, endpoint: string): ModelGatewayError {
  if (error instanceof ModelGatewayError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new ModelGatewayError(`The model request to ${endpoint} timed out (after the SDK's retries). Raise timeoutMs or try again later.`, {
      code: 'model_timeout',
      cause: error,
    });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return new ModelGatewayError(`Could not reach the model endpoint ${endpoint} (after the SDK's retries)${cause}. Check baseURL and the network.`, {
      code: 'model_connection_failed',
      cause: error,
    });
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    const detail = apiErrorDetail(error);
    if (status === undefined) {
      return new ModelGatewayError(`The model stream reported an error: ${endSentence(detail)}`, { code: 'model_stream_error', cause: error });
    }
    if (status === 401) {
      return new ModelGatewayError(`The model endpoint ${endpoint} rejected the API key (HTTP 401: ${detail}). Check the apiKey option or OPENAI_API_KEY.`, {
        status,
        code: 'model_auth_failed',
        cause: error,
      });
    }
    if (status === 403) {
      return new ModelGatewayError(`The model endpoint ${endpoint} refused access (HTTP 403: ${detail}). Check the key's project and model permissions.`, {
        status,
        code: 'model_permission_denied',
        cause: error,
      });
    }
    if (status === 429) {
      return new ModelGatewayError(
        `The model endpoint ${endpoint} is rate limiting requests (HTTP 429: ${detail}), still after the SDK's retries. Try again later.`,
        {
          status,
          code: 'model_rate_limited',
          cause: error,
        },
      );
    }
    if (status >= 500) {
      return new ModelGatewayError(`The model endpoint ${endpoint} failed (HTTP ${status}: ${detail}), still after the SDK's retries. Try again later.`, {
        status,
        code: 'model_server_error',
        cause: error,
      });
    }
    return new ModelGatewayError(`The model endpoint ${endpoint} refused the request (HTTP ${status}: ${detail}).`, {
      status,
      code: status === 400 ? 'model_bad_request' : 'model_request_failed',
      cause: error,
    });
  }
  if (error instanceof SyntaxError) {
    return new ModelGatewayError(`The model stream from ${endpoint} was malformed: ${error.message}`, { code: 'model_stream_malformed', cause: error });
  }
  const message = describeThrown(error);
  return new ModelGatewayError(`The model request to ${endpoint} failed: ${message}`, { cause: error });
}

function apiErrorDetail(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | undefined;
  const message = typeof body?.message === 'string' ? body.message : error.message;
  const extras: string[] = [];
  if (typeof error.code === 'string' && error.code !== '') extras.push(`code ${error.code}`);
  if (typeof error.param === 'string' && error.param !== '') extras.push(`param ${error.param}`);
  // "…the request. (code x)" would read badly and "…the request.." worse: the sentence goes on, its period goes.
  return extras.length === 0 ? message.trim() : `${withoutFinalPeriod(message)} (${extras.join(', ')})`;
}
