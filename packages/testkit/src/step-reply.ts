/** Token counts a step may set; anything left out is estimated from the request and the output. */
export interface UsageOptions {
  inputTokens?: number;
  outputTokens?: number;
  cachedTokens?: number;
  reasoningTokens?: number;
}

/** An output item as the Responses API returns it (`message`, `function_call`, `reasoning`, ...). Missing ids are generated per request. */
export type OutputItemSpec = { type: string } & Record<string, unknown>;

/** Fields every kind of step shares: usage, model override, pacing and stream cutting. */
export interface StepReplyCommon {
  /** Token usage reported in the response (estimated when absent). */
  usage?: UsageOptions;
  /** Model name echoed in the response (default: the server's `model` option, then the request's `model`). */
  model?: string;
  /** Delay before a JSON body, or between two stream events. */
  delayMs?: number;
  /** Destroy the socket after this many stream events (JSON: after half of the body). */
  cutAfterEvents?: number;
}

/** A step that answers with a Response object (JSON) or its event stream (SSE). */
export interface ResponseStepReply extends StepReplyCommon {
  kind: 'response';
  output: OutputItemSpec[];
  status: 'completed' | 'incomplete' | 'failed';
  /** Reason reported in `incomplete_details` when `status` is `incomplete`. */
  incompleteReason?: 'max_output_tokens' | 'content_filter';
  /** The response's `error` when `status` is `failed`. */
  error?: { code: string; message: string };
}

/** A step that answers with an HTTP error status and the API's error body. */
export interface HttpErrorStepReply extends StepReplyCommon {
  kind: 'http-error';
  status: number;
  headers: Record<string, string>;
  error: { message: string; type: string; param: string | null; code: string | null };
}

/** A step whose stream emits an `error` event after `response.created` / `response.in_progress`. */
export interface ErrorEventStepReply extends StepReplyCommon {
  kind: 'error-event';
  message: string;
  code: string | null;
  param: string | null;
}

/**
 * A step that replays a captured stream: its events are written as they are (`sequence_number` renumbered from 0);
 * a request without `stream` gets the terminal event's Response as JSON, its `output` taken from the
 * `response.output_item.done` events when the terminal event has none.
 */
export interface CaptureStepReply extends StepReplyCommon {
  kind: 'capture';
  events: Array<{ type: string } & Record<string, unknown>>;
}

/** What the server answers to one `POST /v1/responses`; build it with the `reply` helpers. */
export type StepReply = ResponseStepReply | HttpErrorStepReply | ErrorEventStepReply | CaptureStepReply;

/** One request as the server received it, recorded before the reply is chosen. */
export interface RecordedRequest {
  /** Arrival order, from 0, over every request the server received (including rejected ones). */
  index: number;
  method: string;
  /** The path with its query string, e.g. `/v1/responses`. */
  path: string;
  /** Request headers, lower-cased names. */
  headers: Record<string, string>;
  /** The parsed JSON body; `undefined` when the body was empty or not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions read arbitrary request fields
  body: any;
  /** The body as received. */
  rawBody: string;
}

/** Context passed to a step function. */
export interface StepContext {
  /** Index of this step in the script (0 for the first step consumed). */
  index: number;
}

/** One scripted answer: a fixed reply, or a function of the request that returns one. */
export type ScriptStep =
  | StepReply
  | ((request: RecordedRequest, context: StepContext) => StepReply | Promise<StepReply>);
