import type OpenAI from 'openai';
import type { ActivityStatus } from '../loop/agent-events.js';
import type { CallDenial, DenialSource } from './call-denial.js';
import type { ArgumentRepair } from '../repair/argument-repair.js';
import type { FunctionCallOutputItem } from '../tool/tool-output.js';
import type { AgentToolResult, AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';

export type { FunctionCallOutputItem } from '../tool/tool-output.js';

/** A `function_call` item as the model returned it. */
export type FunctionCallItem = OpenAI.Responses.ResponseFunctionToolCall;

/** The per-tool timeout when neither the tool nor the options set one: 2 minutes. */
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;

/** How many `parallel` calls run at once when `maxConcurrency` is not set. */
export const DEFAULT_MAX_CONCURRENCY = 16;

/** Options of `dispatchToolCalls`. */
export interface DispatchOptions {
  /** Aborts every running call; calls not yet started are not started. */
  signal?: AbortSignal;
  /** Default per-tool timeout in ms (a tool's own `timeoutMs` wins). Default 120 000; `Infinity` for none. */
  timeoutMs?: number;
  /** How many `parallel` calls run at once. Default 16. */
  maxConcurrency?: number;
  /**
   * Called when a tool's `execute` starts (after validation). Calls that never start (unknown tool, invalid
   * arguments, aborted before their turn) only get `onCallCompleted`. An exception thrown here is ignored.
   */
  onCallStarted?: (call: FunctionCallItem, tool: AnyWorkerAgentTool, label: string) => void;
  /** Called when a call ends, in completion order, once per call. An exception thrown here is ignored. */
  onCallCompleted?: (outcome: ToolCallOutcome) => void;
  /**
   * Asked about each validated call when its turn to start comes (parallel calls are asked concurrently): `run` it,
   * `deny` it (it gets an error output saying who denied it, `by` (default `person`), and why; see `declinedMessage`), or `hold` it (it gets no output; its
   * outcome has `pending: 'held'`). Once a call is held, the next sequential call and every call after it are not
   * started either (`pending: 'deferred'`), so the model's ordering holds; the gate is still asked about them
   * (a denial or hold is recorded at once, a `run` waits). A gate that throws (or answers nothing usable) denies the
   * call as `unattended`.
   */
  gate?: (call: FunctionCallItem, tool: AnyWorkerAgentTool, params: unknown, label: string) => CallGateAnswer | Promise<CallGateAnswer>;
}

/**
 * What `DispatchOptions.gate` says about one call. A `deny` names who denied it (`by`: the agent's `config`, a
 * `person`, or `unattended` when no one could be asked; left out: `person`) and why (`reason`, seen by the model).
 */
export type CallGateAnswer = { action: 'run' } | { action: 'deny'; reason?: string; by?: DenialSource } | { action: 'hold' };

/** How one call ended. */
export interface ToolCallOutcome {
  callId: string;
  /** The name as the model called it. */
  name: string;
  namespace?: string;
  /** The tool, when one matched. */
  tool?: AnyWorkerAgentTool;
  status: ActivityStatus;
  /** The item to send back to the model. */
  output: FunctionCallOutputItem;
  /** The tool's result, when `execute` returned one. */
  result?: AgentToolResult;
  /** The started label and, when done, the completed one. */
  label: string;
  completedLabel: string;
  repairs: ArgumentRepair[];
  durationMs: number;
  error?: string;
  /** The result asked to end the turn. */
  terminateTurn: boolean;
  /** Whether `execute` was called (false for unknown tools, invalid arguments and calls aborted before their turn). */
  started: boolean;
  /**
   * Set when the call got no output: `held` by the gate (its validated `params` are kept), or `deferred` because an
   * earlier call was held. Its `output` is a placeholder never to be sent.
   */
  pending?: 'held' | 'deferred';
  /** The validated params, for a held call. */
  params?: unknown;
  /** Set when the gate denied the call: who denied it and why (its `output` says the same to the model). */
  denial?: CallDenial;
}
