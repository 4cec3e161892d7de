import type { ToolCallOutcome } from '../dispatch/dispatch-options.js';
import { abortedOutputText } from '../tool/tool-output.js';
import type { TurnEndReason } from './agent-events.js';
import { fillSlots, openCalls, type StepSlot, slotOutputs } from './run-state.js';
import type { StepCalls } from './step-calls.js';
import type { ActivityHooks } from './turn-events.js';
import type { TurnState } from './turn-state.js';

/** What `settleCalls` works with: the turn so far, the step's calls and their events, the turn's signal. */
export interface SettleContext {
  state: TurnState;
  calls: StepCalls;
  hooks: ActivityHooks;
  signal: AbortSignal | undefined;
}

/**
 * Runs the calls of `slots` that have no output yet (through the approval gate), records the outputs and, when every
 * slot is answered, adds them to the history. Returns how the turn ends when it pauses (`awaiting_approval`, with the
 * run state set), aborts, or a result asks to end it (`terminateBefore`: one did before the pause); else `undefined`.
 */
export async function settleCalls(slots: StepSlot[], terminateBefore: boolean, context: SettleContext): Promise<TurnEndReason | undefined> {
  const { state, signal } = context;
  const calls = openCalls(slots);
  context.hooks.remember(calls);
  const outcomes = await context.calls.finish(calls);
  fillSlots(slots, outcomes);
  const terminate = terminateBefore || outcomes.some((outcome) => outcome.terminateTurn);
  const paused = outcomes.some((outcome) => outcome.pending !== undefined);
  if (paused && signal?.aborted !== true) {
    state.runState = state.toRunState(slots, terminate, calls, outcomes);
    return 'awaiting_approval';
  }
  // Aborted while calls were held: they get aborted outputs, so the history stays valid.
  if (paused)
    fillSlots(
      slots,
      outcomes.map((outcome) => withoutPending(outcome, signal)),
    );
  state.recordOutputs(slotOutputs(slots));
  if (signal?.aborted === true) return 'aborted';
  if (terminate) return 'terminated';
  return undefined;
}

function withoutPending(outcome: ToolCallOutcome, signal: AbortSignal | undefined): ToolCallOutcome {
  if (outcome.pending === undefined) return outcome;
  const { pending: _pending, ...rest } = outcome;
  return {
    ...rest,
    output: { type: 'function_call_output', call_id: outcome.callId, output: abortedOutputText({ toolName: outcome.name, started: false, stop: signal }) },
  };
}
