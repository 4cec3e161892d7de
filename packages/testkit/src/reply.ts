import type {
  CaptureStepReply,
  ErrorEventStepReply,
  HttpErrorStepReply,
  OutputItemSpec,
  ResponseStepReply,
  StepReply,
  UsageOptions,
} from './step-reply.js';

/** Options every builder that produces a response accepts. */
export interface ReplyOptions {
  usage?: UsageOptions;
  model?: string;
}

/** One function call the model makes. */
export interface FunctionCallSpec {
  name: string;
  /** A string is sent verbatim (so malformed JSON can be scripted); anything else goes through `JSON.stringify`. */
  arguments: string | Record<string, unknown> | unknown[];
  namespace?: string;
  /** The `call_id`; generated (`call_…`) when absent. */
  callId?: string;
  /** The item id; generated (`fc_…`) when absent. */
  id?: string;
}

/** Options of `reply.functionCalls`. */
export interface FunctionCallsOptions extends ReplyOptions {
  /** An assistant message emitted before the calls. */
  text?: string;
  /** A reasoning item (its summary text) emitted first. */
  reasoning?: string;
}

/** Options of `reply.toolSearchCall`. */
export interface ToolSearchCallSpec extends ReplyOptions {
  arguments: { query: string } & Record<string, unknown>;
  callId?: string;
  /** `client` (default): the caller must answer with a `tool_search_output`. */
  execution?: 'client' | 'server';
}

function messageItem(text: string): OutputItemSpec {
  return {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
  };
}

function reasoningItem(summary: string): OutputItemSpec {
  return { type: 'reasoning', summary: [{ type: 'summary_text', text: summary }] };
}

function response(output: OutputItemSpec[], options: ReplyOptions = {}): ResponseStepReply {
  return {
    kind: 'response',
    status: 'completed',
    output,
    ...(options.usage === undefined ? {} : { usage: options.usage }),
    ...(options.model === undefined ? {} : { model: options.model }),
  };
}

function httpError(status: number, headers: Record<string, string>, error: HttpErrorStepReply['error']): HttpErrorStepReply {
  return { kind: 'http-error', status, headers, error };
}

function asResponse(step: StepReply, builder: string): ResponseStepReply {
  if (step.kind !== 'response') {
    throw new TypeError(`reply.${builder} needs a response step (reply.text, reply.functionCalls, reply.items, ...), got a ${step.kind} step.`);
  }
  return step;
}

/**
 * Builders for scripted replies. Each returns a plain `StepReply` object; fault builders wrap another step.
 * Ids (`resp_…`, `msg_…`, `fc_…`, `call_…`) are generated when the step is served, so a step object can be reused.
 */
export const reply = {
  /** One assistant message with one `output_text` part. */
  text(text: string, options: ReplyOptions = {}): ResponseStepReply {
    return response([messageItem(text)], options);
  },

  /** Function calls (optionally after a reasoning item and a message); `arguments` objects are JSON-encoded. */
  functionCalls(calls: FunctionCallSpec[], options: FunctionCallsOptions = {}): ResponseStepReply {
    const output: OutputItemSpec[] = [];
    if (options.reasoning !== undefined) output.push(reasoningItem(options.reasoning));
    if (options.text !== undefined) output.push(messageItem(options.text));
    for (const call of calls) {
      output.push({
        type: 'function_call',
        ...(call.id === undefined ? {} : { id: call.id }),
        ...(call.callId === undefined ? {} : { call_id: call.callId }),
        ...(call.namespace === undefined ? {} : { namespace: call.namespace }),
        name: call.name,
        arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
      });
    }
    return response(output, options);
  },

  /** A `tool_search_call` item (client-executed by default): the caller answers with a `tool_search_output`. */
  toolSearchCall(spec: ToolSearchCallSpec): ResponseStepReply {
    return response(
      [
        {
          type: 'tool_search_call',
          ...(spec.callId === undefined ? {} : { call_id: spec.callId }),
          execution: spec.execution ?? 'client',
          arguments: spec.arguments,
        },
      ],
      spec,
    );
  },

  /** Raw output items, sent as given (missing `id` / `call_id` fields are generated). */
  items(items: OutputItemSpec[], options: ReplyOptions = {}): ResponseStepReply {
    return response(items.map((item) => ({ ...item })), options);
  },

  /** The given response cut short: status `incomplete`, `incomplete_details.reason`, stream ends with `response.incomplete`. */
  incomplete(
    step: StepReply,
    reason: 'max_output_tokens' | 'content_filter' = 'max_output_tokens',
  ): ResponseStepReply {
    return { ...asResponse(step, 'incomplete'), status: 'incomplete', incompleteReason: reason };
  },

  /** A failed response (`status: 'failed'`, `error`); the stream ends with `response.failed`. */
  failed(message: string, options: ReplyOptions & { code?: string } = {}): ResponseStepReply {
    return { ...response([], options), status: 'failed', error: { code: options.code ?? 'server_error', message } };
  },

  /** HTTP 429 with `retry-after` (seconds, fractions allowed) and the API's rate-limit error body. */
  rateLimited(options: { retryAfterSeconds?: number; message?: string } = {}): HttpErrorStepReply {
    const headers: Record<string, string> = {};
    if (options.retryAfterSeconds !== undefined) headers['retry-after'] = String(options.retryAfterSeconds);
    return httpError(429, headers, {
      message: options.message ?? 'Rate limit reached for requests (testkit). Please try again later.',
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
    });
  },

  /** An HTTP 5xx with the API's server-error body (the SDK retries it). */
  serverError(status = 500, options: { message?: string; retryAfterSeconds?: number } = {}): HttpErrorStepReply {
    const headers: Record<string, string> = {};
    if (options.retryAfterSeconds !== undefined) headers['retry-after'] = String(options.retryAfterSeconds);
    return httpError(status, headers, {
      message:
        options.message ??
        'The server had an error while processing your request. Sorry about that! (testkit)',
      type: 'server_error',
      param: null,
      code: null,
    });
  },

  /** Any HTTP error status with the API's error body; `x-should-retry` is set when `retry` is given. */
  httpError(
    status: number,
    error: { message: string; type?: string; param?: string | null; code?: string | null },
    options: { retry?: boolean; headers?: Record<string, string> } = {},
  ): HttpErrorStepReply {
    const headers = { ...options.headers };
    if (options.retry !== undefined) headers['x-should-retry'] = String(options.retry);
    return httpError(status, headers, {
      message: error.message,
      type: error.type ?? 'invalid_request_error',
      param: error.param ?? null,
      code: error.code ?? null,
    });
  },

  /** The given step, but the connection is destroyed after `afterEvents` stream events (JSON: mid-body). */
  cutStream<T extends StepReply>(step: T, options: { afterEvents: number }): T {
    return { ...step, cutAfterEvents: options.afterEvents };
  },

  /** The given step, with `delayMs` before a JSON body or between two stream events; a client disconnect stops it. */
  slow<T extends StepReply>(step: T, options: { delayMs: number }): T {
    return { ...step, delayMs: options.delayMs };
  },

  /**
   * Replays a captured stream (e.g. `streamCapture('custom-tool-call')` or `readStreamCapture(path)`): the events are
   * written as given, with `sequence_number` from 0; a request without `stream` gets the terminal Response as JSON.
   */
  capture(events: CaptureStepReply['events']): CaptureStepReply {
    return { kind: 'capture', events: events.map((event) => ({ ...event })) };
  },

  /** A stream that emits `response.created`, `response.in_progress` and then an `error` event (JSON: HTTP 500, not retried); `code: null` is sent as null. */
  errorEvent(message: string, options: { code?: string | null; param?: string | null } = {}): ErrorEventStepReply {
    return { kind: 'error-event', message, code: options.code === undefined ? 'server_error' : options.code, param: options.param ?? null };
  },
} as const;
