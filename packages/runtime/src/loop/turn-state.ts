import type { ContextHistory } from '../context/context-manager.js';
import type { FunctionCallItem, ToolCallOutcome } from '../dispatch/dispatch-options.js';
import type { ResponseInputItem } from '../gateway/model-gateway.js';
import { addUsage, emptyUsage } from '../gateway/usage.js';
import type { TokenUsage, TurnEndReason } from './agent-events.js';
import type { AgentLoopResult } from './agent-loop-options.js';
import { type AgentRunState, pendingApproval, type StepSlot } from './run-state.js';

/** Where a turn starts: a new input, or a paused turn's run state. */
export type TurnStart = { input: ResponseInputItem[]; previousResponseId: string | undefined } | { resumed: AgentRunState };

/**
 * What a turn has done so far: the history, the counters and the last response. The loop changes it through its
 * methods only; `result` and `toRunState` read it out.
 */
export class TurnState {
  /** The whole conversation: the input items and everything added during the turn. */
  readonly items: ResponseInputItem[];
  readonly usage: TokenUsage;
  steps: number;
  toolCalls: number;
  responseId: string | undefined;
  /** The final assistant text of the last response. */
  text = '';
  /** What the next request sends in `previous_response_id` mode (the stored response holds the rest). */
  newItems: ResponseInputItem[];
  /** Set when the turn pauses for approval. */
  runState: AgentRunState | undefined = undefined;
  /** How many times the history was compacted. */
  compactions = 0;

  constructor(start: TurnStart) {
    if ('resumed' in start) {
      const { resumed } = start;
      this.items = [...resumed.items];
      this.usage = { ...resumed.usage };
      this.steps = resumed.steps;
      this.toolCalls = resumed.toolCalls;
      this.responseId = resumed.responseId;
      this.newItems = [];
    } else {
      this.items = start.input;
      this.usage = emptyUsage();
      this.steps = 0;
      this.toolCalls = 0;
      this.responseId = start.previousResponseId;
      this.newItems = this.items;
    }
  }

  /** A response arrived: its id, usage and text; its items (those `kept`) enter the history. */
  recordResponse(responseId: string, usage: TokenUsage | undefined, kept: readonly ResponseInputItem[], text: string): void {
    this.responseId = responseId;
    if (usage !== undefined) addUsage(this.usage, usage);
    this.items.push(...kept);
    this.newItems = [];
    this.text = text;
  }

  /** Answers to the last response enter the history; the next request carries them. */
  recordOutputs(outputs: ResponseInputItem[]): void {
    this.items.push(...outputs);
    this.newItems = outputs;
  }

  /**
   * The history as context management sees it. `chained`: the gateway continues stored responses
   * (`previous_response_id`), so until a compaction `items` may hold only what came after the stored one.
   */
  contextHistory(chained: boolean): ContextHistory {
    const state = this;
    let wholeHistory = !(chained && this.responseId !== undefined);
    return {
      items: this.items,
      get storedResponseId() {
        return chained && !wholeHistory ? state.responseId : undefined;
      },
      get pending() {
        return state.newItems;
      },
      replace(compacted) {
        state.items.splice(0, state.items.length, ...compacted);
        state.newItems = state.items;
        // The next request carries the whole compacted history instead of continuing the stored chain.
        if (chained) state.responseId = undefined;
        wholeHistory = true;
      },
    };
  }

  /** The plain-JSON state of a turn paused on `slots` (the held outcomes among `outcomes` become its `pending`). */
  toRunState(slots: StepSlot[], terminate: boolean, calls: readonly FunctionCallItem[], outcomes: readonly ToolCallOutcome[]): AgentRunState {
    const callById = new Map(calls.map((call) => [call.call_id, call]));
    const pending = [];
    for (const outcome of outcomes) {
      const call = callById.get(outcome.callId);
      if (outcome.pending === 'held' && call !== undefined) pending.push(pendingApproval(call, outcome));
    }
    return {
      version: 1,
      items: [...this.items],
      steps: this.steps,
      usage: { ...this.usage },
      toolCalls: this.toolCalls,
      ...(this.responseId === undefined ? {} : { responseId: this.responseId }),
      terminate,
      slots,
      pending,
    };
  }

  /** How the turn ended, as `runAgentLoop` resolves it. */
  result(reason: TurnEndReason, error: string | undefined): AgentLoopResult {
    const result: AgentLoopResult = {
      reason,
      steps: this.steps,
      text: this.text,
      items: this.items,
      usage: this.usage,
      toolCalls: this.toolCalls,
      pendingItems: [...this.newItems],
      compactions: this.compactions,
    };
    if (error !== undefined) result.error = error;
    if (this.responseId !== undefined) result.responseId = this.responseId;
    if (reason === 'awaiting_approval' && this.runState !== undefined) result.runState = this.runState;
    return result;
  }
}
