import type { ApprovalPolicy, PendingCallDecision } from '../dispatch/approval-policy.js';
import type { ModelGateway, ResponseInputItem } from '../gateway/model-gateway.js';
import type { ContextOptions } from '../context/context-manager.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';
import type { AgentEvent, TokenUsage, TurnEndReason } from './agent-events.js';
import type { AgentRunState } from './run-state.js';

/** Options of `runAgentLoop`. */
export interface AgentLoopOptions {
  gateway: ModelGateway;
  tools: readonly AnyWorkerAgentTool[];
  /** The user's message, or the items to start from (e.g. an earlier turn's `items` plus a new message). Ignored with `resume`. */
  input: string | ResponseInputItem[];
  instructions?: string;
  /** Most model calls in the turn (default 20). */
  maxSteps?: number;
  signal?: AbortSignal;
  /** Receives every event, in order. An exception thrown here is ignored (it cannot break the turn). */
  onEvent?: (event: AgentEvent) => void;
  /** Default per-tool timeout in ms (default 120 000; a tool's own `timeoutMs` wins). */
  toolTimeoutMs?: number;
  /** How many parallel calls run at once (default 16). */
  maxConcurrency?: number;
  /** Most tools one client `tool_search` returns (default 5). */
  toolSearchLimit?: number;
  /** In `previous_response_id` mode: continue from this stored response (e.g. an earlier turn's `responseId`). */
  previousResponseId?: string;
  /**
   * Decides the calls that need approval (`WorkerAgentTool.needsApproval`): allow, deny with a reason and who denied
   * (`by`: `config`, `person` (the default) or `unattended`; the model's output is worded for it), or ask (the turn
   * pauses, ending `awaiting_approval`). Without a policy every call runs.
   */
  approvalPolicy?: ApprovalPolicy;
  /**
   * Resumes a turn that ended `awaiting_approval` from its `runState`, with a decision per held call (by call id):
   * approved calls run with their validated params, declined ones get an error output saying a person declined and
   * why (a denial `by` a `person`); a held call left without a decision stays held (the turn pauses again). Calls that were waiting behind a
   * held call go to `approvalPolicy` as usual. The model is not asked again until every call of the paused response
   * has its output. `steps`, `usage` and `toolCalls` go on from the state (`maxSteps` counts the whole turn).
   */
  resume?: { state: AgentRunState; decisions: Readonly<Record<string, PendingCallDecision>> };
  /**
   * Start calls while the response streams (default true), as soon as the gateway reports their item complete
   * (`ModelCallOptions.onOutputItemDone`): calls of tools that `eagerStart` (default: read-only ones) start at once
   * when their ordering allows; the others, and calls needing approval under `approvalPolicy`, wait for the complete
   * response. `false`: every call starts after the whole response.
   */
  eagerDispatch?: boolean;
  /**
   * Keeps the turn within the model's context window (default on, with the defaults of `ContextOptions`): before a
   * request that would fill more than `threshold` of the window, the history is compacted (the server's
   * `/responses/compact`, else locally); a request the model refuses as too long (`context_length_exceeded`) is
   * compacted and sent once more, then the turn ends `error` with a `ContextWindowError` message. After a compaction
   * `items` is the compacted history, and in `previous_response_id` mode the next request carries it whole. `false`:
   * no budget, no compaction (a refusal ends the turn with the endpoint's error).
   */
  context?: ContextOptions | false;
}

/** How a turn went. */
export interface AgentLoopResult {
  reason: TurnEndReason;
  /** Model calls made. */
  steps: number;
  /**
   * The final assistant text: the last response's answer. With `phase` messages, its `final_answer` text (the
   * `commentary` is in the `message.completed` events); two messages are separated by a blank line.
   */
  text: string;
  /** The whole conversation: the input items and everything added during the turn (always a valid history). */
  items: ResponseInputItem[];
  usage: TokenUsage;
  /** Function calls dispatched (including failed and aborted ones; each call inside a `multi_tool_use.parallel` wrapper counts). */
  toolCalls: number;
  error?: string;
  /** The id of the last response, to continue from in `previous_response_id` mode. */
  responseId?: string;
  /**
   * The items recorded after the last response that no request has carried yet (the tool outputs of the last
   * step when the turn ended `terminated`, `max_steps` or `aborted`). To continue in `previous_response_id` mode,
   * start the next turn with `previousResponseId: responseId` and `input: [...pendingItems, newMessage]`.
   */
  pendingItems: ResponseInputItem[];
  /** When the turn ended `awaiting_approval`: the plain-JSON state to resume from (`options.resume`). */
  runState?: AgentRunState;
  /** How many times the history was compacted in this turn (then `items` is the compacted, whole history). */
  compactions: number;
}

/** The default of `maxSteps`. */
export const DEFAULT_MAX_STEPS = 20;
