import type { CallDenial, DenialSource } from '../dispatch/call-denial.js';
import type { ArgumentRepair } from '../repair/argument-repair.js';
import type { MessagePhase } from '../gateway/model-gateway.js';
import type { PresentationEvent } from '../tool/worker-agent-tool.js';

/** Why a turn ended. */
export type TurnEndReason =
  /** The model answered without calling a tool. */
  | 'completed'
  /** A tool result had `terminateTurn`. */
  | 'terminated'
  /** `maxSteps` model calls were made and the model still wanted tools. */
  | 'max_steps'
  /** The turn's signal aborted. */
  | 'aborted'
  /** The model's response was cut short (`incomplete`) and could not go on. */
  | 'incomplete'
  /** The model endpoint failed (after the SDK's retries). */
  | 'error'
  /** A call's approval policy answered `ask`: the turn paused; `AgentLoopResult.runState` resumes it. */
  | 'awaiting_approval';

/** Token usage, summed over the turn or for one step. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cachedInputTokens?: number;
  reasoningTokens?: number;
}

/** How one tool call ended. */
export type ActivityStatus = 'success' | 'error' | 'timeout' | 'aborted';

/** Events `runAgentLoop` emits, in order, through `onEvent`. */
export type AgentEvent =
  | { type: 'turn.started'; tools: number }
  | { type: 'step.started'; step: number }
  /** A streamed piece of an assistant message; `itemId` and `phase` tell commentary from the final answer. */
  | { type: 'text.delta'; step: number; delta: string; itemId?: string; phase?: MessagePhase }
  /** One assistant message of a response, whole, with its phase (`commentary` or `final_answer`) when given. */
  | { type: 'message.completed'; step: number; itemId: string; text: string; phase?: MessagePhase }
  /** The answer text of a step (the `final_answer` when the model gave phases; see `AgentLoopResult.text`). */
  | { type: 'text.completed'; step: number; text: string }
  | {
      type: 'activity.started';
      step: number;
      callId: string;
      toolName: string;
      namespace?: string;
      label: string;
      executionMode: 'parallel' | 'sequential';
      /** The arguments as the model sent them (JSON text, before any repair). */
      arguments?: string;
      /** The tool's flags (false when no tool matched). */
      isReadOnly?: boolean;
      isDestructive?: boolean;
    }
  | {
      type: 'activity.completed';
      step: number;
      callId: string;
      toolName: string;
      namespace?: string;
      label: string;
      status: ActivityStatus;
      durationMs: number;
      repairs: ArgumentRepair[];
      /** For `error` / `timeout` / `aborted`: what went wrong. */
      error?: string;
      /** The output sent back to the model, as text (an image part is `[image]`). */
      output?: string;
      completeActorEvent?: boolean;
      /** The result's `details` (structured data for logs and UIs; never sent to the model). */
      details?: unknown;
      /** Set when the call was denied instead of run: who denied it (`config`, `person`, `unattended`) and why. */
      denial?: CallDenial;
      isReadOnly?: boolean;
      isDestructive?: boolean;
    }
  /** A call needs approval and is put to the approval policy. */
  | {
      type: 'approval.requested';
      step: number;
      callId: string;
      toolName: string;
      namespace?: string;
      label: string;
      /** The validated params. */
      params: unknown;
      isReadOnly: boolean;
      isDestructive: boolean;
    }
  /**
   * How a call needing approval was decided: run (`approved`), declined (`denied`, with who denied it, `by`, and the
   * reason) or `held` (the turn pauses).
   */
  | {
      type: 'approval.decided';
      step: number;
      callId: string;
      toolName: string;
      namespace?: string;
      label: string;
      decision: 'approved' | 'denied' | 'held';
      /** For `denied`: the agent's `config`, a `person`, or `unattended` (no one could be asked). */
      by?: DenialSource;
      reason?: string;
    }
  | { type: 'presentation'; step: number; callId: string; toolName: string; event: PresentationEvent }
  | { type: 'tool_search.completed'; step: number; callId: string; query: string; toolNames: string[] }
  | { type: 'usage'; step: number; usage: TokenUsage }
  /**
   * The history was compacted before the step's request (`reason`: it crossed the threshold, or the model refused
   * it as too long, `overflow`), or the server compacted it in the step's response (`server`). Sizes in tokens:
   * `tokensBefore` measured or estimated, `tokensAfter` estimated (characters / 4).
   */
  | {
      type: 'context.compacted';
      step: number;
      strategy: string;
      reason: 'threshold' | 'overflow' | 'server';
      tokensBefore: number;
      tokensAfter: number;
      window: number;
      itemsBefore: number;
      itemsAfter: number;
    }
  | { type: 'turn.completed'; reason: TurnEndReason; steps: number; usage: TokenUsage; text: string; error?: string };

/** The `type` of an agent event. */
export type AgentEventType = AgentEvent['type'];
