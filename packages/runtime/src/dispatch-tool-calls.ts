import type OpenAI from 'openai';
import type { ArgumentRepair } from './validate-tool-arguments.js';
import type { ActivityStatus } from './agent-events.js';
import type { AgentToolResult, AnyWorkerAgentTool } from './worker-agent-tool.js';

/** A `function_call` item as the model returned it. */
export type FunctionCallItem = OpenAI.Responses.ResponseFunctionToolCall;

/** The `function_call_output` item sent back for a call. */
export type FunctionCallOutputItem = OpenAI.Responses.ResponseInputItem.FunctionCallOutput;

/** Options of `dispatchToolCalls`. */
export interface DispatchOptions {
  /** Aborts every running call; calls not yet started are not started. */
  signal?: AbortSignal;
  /** Default per-tool timeout in ms (a tool's own `timeoutMs` wins). Default 120 000. */
  timeoutMs?: number;
  /** How many `parallel` calls run at once. Default 8. */
  maxConcurrency?: number;
  /** Called when a call starts (after validation). */
  onCallStarted?: (call: FunctionCallItem, tool: AnyWorkerAgentTool, label: string) => void;
  /** Called when a call ends, in completion order. */
  onCallCompleted?: (outcome: ToolCallOutcome) => void;
}

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
}

/**
 * Validates and runs one model response's function calls; one outcome per call, in the model's order.
 * Never throws for a tool's failure: every failure becomes an error output the model sees.
 */
export async function dispatchToolCalls(
  calls: readonly FunctionCallItem[],
  toolMap: ReadonlyMap<string, AnyWorkerAgentTool>,
  options: DispatchOptions = {},
): Promise<ToolCallOutcome[]> {
  // TODO(runtime-loop helper)
  void calls;
  void toolMap;
  void options;
  throw new Error('dispatchToolCalls: not implemented yet');
}
