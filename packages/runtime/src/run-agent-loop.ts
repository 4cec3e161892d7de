import type { AgentEvent, TokenUsage, TurnEndReason } from './agent-events.js';
import type { ModelGateway, ResponseInputItem } from './model-gateway.js';
import type { AnyWorkerAgentTool } from './worker-agent-tool.js';

/** Options of `runAgentLoop`. */
export interface AgentLoopOptions {
  gateway: ModelGateway;
  tools: readonly AnyWorkerAgentTool[];
  /** The user's message, or the items to start from. */
  input: string | ResponseInputItem[];
  instructions?: string;
  /** Most model calls in the turn (default 20). */
  maxSteps?: number;
  signal?: AbortSignal;
  onEvent?: (event: AgentEvent) => void;
  /** Default per-tool timeout in ms. */
  toolTimeoutMs?: number;
  /** How many parallel calls run at once. */
  maxConcurrency?: number;
}

/** How a turn went. */
export interface AgentLoopResult {
  reason: TurnEndReason;
  /** Model calls made. */
  steps: number;
  /** The final assistant text (the last response's text). */
  text: string;
  /** The whole conversation: the input items and everything added during the turn. */
  items: ResponseInputItem[];
  usage: TokenUsage;
  toolCalls: number;
  error?: string;
}

/** Runs one turn: model, tools, results, repeat. Resolves (never rejects) with how it ended. */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  // TODO(runtime-loop helper)
  void options;
  throw new Error('runAgentLoop: not implemented yet');
}
