import type OpenAI from 'openai';
import type { ResponsesTool } from '../schema/collect-tool-schemas.js';
import type { TokenUsage } from '../loop/agent-events.js';

/** An item of the Responses `input`. */
export type ResponseInputItem = OpenAI.Responses.ResponseInputItem;

/** An item of a response's `output`. */
export type ResponseOutputItem = OpenAI.Responses.ResponseOutputItem;

/** What the loop asks the model for on one step. */
export interface ModelRequest {
  input: ResponseInputItem[];
  instructions?: string;
  tools: ResponsesTool[];
  /** Set in `previous_response_id` mode: `input` then holds only the new items. */
  previousResponseId?: string;
}

/** What came back for one step. */
export interface ModelResponse {
  id: string;
  status: OpenAI.Responses.ResponseStatus;
  output: ResponseOutputItem[];
  /** Why the response was cut short, when `status` is `incomplete`. */
  incompleteReason?: string;
  usage?: TokenUsage;
}

/** The `phase` of an assistant message: `commentary` (said while working) or `final_answer` (the answer). */
export type MessagePhase = 'commentary' | 'final_answer';

/** Where a streamed text delta belongs: its message item, and that message's phase when the model gave one. */
export interface TextDeltaSource {
  itemId: string;
  phase?: MessagePhase;
}

/** Callbacks and signal for one model call. */
export interface ModelCallOptions {
  signal?: AbortSignal;
  /** Called with each streamed text delta (`response.output_text.delta`), in order, with the message it belongs to. */
  onTextDelta?: (delta: string, source: TextDeltaSource) => void;
  /**
   * Called with each output item as soon as the stream says it is complete (`response.output_item.done`), before the
   * response itself is; `runAgentLoop` starts eligible function calls from here (eager dispatch). A gateway that
   * never calls it simply gets every call dispatched after the whole response.
   */
  onOutputItemDone?: (item: ResponseOutputItem, source: OutputItemSource) => void;
}

/** Where a completed output item belongs: the response being streamed (a retried request streams a new one) and its place. */
export interface OutputItemSource {
  responseId: string;
  outputIndex: number;
}

/** A history to compact through the model endpoint (`POST /responses/compact`). */
export interface CompactRequest {
  /** The items to compact (with `previousResponseId`: the items after that stored response). */
  input: ResponseInputItem[];
  instructions?: string;
  previousResponseId?: string;
}

/** What the compact endpoint returned: the history to go on from (user messages and an opaque `compaction` item). */
export interface CompactedHistory {
  items: ResponseInputItem[];
  usage?: TokenUsage;
}

/** Anything that can answer a model request: the OpenAI Responses gateway, or a test double. */
export interface ModelGateway {
  /** Whether the loop sends only new items with `previousResponseId` (true) or the full input (false). */
  readonly usesPreviousResponseId: boolean;
  /** The model it calls, when it knows (for logs and traces). */
  readonly model?: string | undefined;
  /** The endpoint it calls (a base URL), when it knows (for logs and traces). */
  readonly endpoint?: string | undefined;
  /**
   * Calls the model once.
   * @throws ModelGatewayError when the endpoint fails after retries; an AbortError when the signal aborts.
   */
  createResponse(request: ModelRequest, options?: ModelCallOptions): Promise<ModelResponse>;
  /**
   * Compacts a history through the endpoint's `POST /responses/compact`, when the gateway can call it.
   * @throws ModelGatewayError when the endpoint fails (`status` 404 when the server has no such endpoint); an
   *   AbortError when the signal aborts.
   */
  compact?(request: CompactRequest, options?: { signal?: AbortSignal }): Promise<CompactedHistory>;
}
