import { z } from 'zod';
import type { TokenUsage } from './agent-events.js';
import type { FunctionCallItem, ToolCallOutcome } from '../dispatch/dispatch-tool-calls.js';
import { UsageError } from '../errors.js';
import { parallelWrapperOutput } from '../dispatch/expand-parallel-wrapper.js';
import type { ResponseInputItem } from '../gateway/model-gateway.js';
import type { FunctionCallOutputItem } from '../tool/tool-output.js';

/** One output-bearing item of a model response, in the model's order: answered, or a call waiting for its output. */
export type StepSlot =
  | { kind: 'output'; output: ResponseInputItem }
  | { kind: 'call'; call: FunctionCallItem; output?: FunctionCallOutputItem }
  /** A `multi_tool_use.parallel` wrapper: one output on the wrapper's id, made of its inner calls' outputs. */
  | { kind: 'wrapper'; wrapper: FunctionCallItem; calls: Array<{ call: FunctionCallItem; output?: FunctionCallOutputItem }> };

/** A call held for a person's decision, as stored in a run state (for display: label, validated params, flags). */
export interface PendingApproval {
  callId: string;
  toolName: string;
  namespace?: string;
  label: string;
  /** The validated (and repaired) params the tool will run with if approved. */
  params: unknown;
  /** The model's raw arguments. */
  arguments: string;
  isReadOnly: boolean;
  isDestructive: boolean;
}

/**
 * A paused turn, plain JSON (store it anywhere, e.g. `JSON.stringify`): the history up to the paused response's
 * output items, the outputs recorded so far in the model's order, and the calls held for approval. Resume it with
 * `runAgentLoop({ …, resume: { state, decisions } })`.
 */
export interface AgentRunState {
  version: 1;
  /** The history, ending with the paused response's output items (their outputs are in `slots`). */
  items: ResponseInputItem[];
  /** Model calls made so far. */
  steps: number;
  usage: TokenUsage;
  toolCalls: number;
  responseId?: string;
  /** A call already run asked to end the turn (`terminateTurn`). */
  terminate: boolean;
  slots: StepSlot[];
  /** The held calls, in the model's order; each needs a decision. */
  pending: PendingApproval[];
}

/** The calls of `slots` that have no output yet, in the model's order (a wrapper's inner calls in its place). */
export function openCalls(slots: readonly StepSlot[]): FunctionCallItem[] {
  const calls: FunctionCallItem[] = [];
  for (const slot of slots) {
    if (slot.kind === 'call' && slot.output === undefined) calls.push(slot.call);
    else if (slot.kind === 'wrapper') for (const inner of slot.calls) if (inner.output === undefined) calls.push(inner.call);
  }
  return calls;
}

/** Records the outputs of finished outcomes (not pending ones) in their slots. */
export function fillSlots(slots: StepSlot[], outcomes: readonly ToolCallOutcome[]): void {
  const byId = new Map<string, FunctionCallOutputItem>();
  for (const outcome of outcomes) if (outcome.pending === undefined) byId.set(outcome.callId, outcome.output);
  for (const slot of slots) {
    if (slot.kind === 'call' && slot.output === undefined) {
      const output = byId.get(slot.call.call_id);
      if (output !== undefined) slot.output = output;
    } else if (slot.kind === 'wrapper') {
      for (const inner of slot.calls) {
        const output = inner.output ?? byId.get(inner.call.call_id);
        if (output !== undefined) inner.output = output;
      }
    }
  }
}

/** The outputs to send, in the model's order; every slot must be filled (see `openCalls`). */
export function slotOutputs(slots: readonly StepSlot[]): ResponseInputItem[] {
  return slots.map((slot) => {
    if (slot.kind === 'output') return slot.output;
    if (slot.kind === 'call') return slot.output as FunctionCallOutputItem;
    const outcomes = slot.calls.map((inner) => ({ output: inner.output as FunctionCallOutputItem }) as ToolCallOutcome);
    return parallelWrapperOutput({ wrapper: slot.wrapper, calls: slot.calls.map((inner) => inner.call) }, outcomes);
  });
}

/** The pending-approval record of a held outcome. */
export function pendingApproval(call: FunctionCallItem, outcome: ToolCallOutcome): PendingApproval {
  const pending: PendingApproval = {
    callId: call.call_id,
    toolName: call.name,
    label: outcome.label,
    params: outcome.params ?? null,
    arguments: typeof call.arguments === 'string' ? call.arguments : '',
    isReadOnly: outcome.tool?.isReadOnly ?? false,
    isDestructive: outcome.tool?.isDestructive ?? false,
  };
  if (outcome.namespace !== undefined) pending.namespace = outcome.namespace;
  return pending;
}

// Built at the first parse, not at load: most processes that load the runtime never read a stored run state, and
// building Zod schemas costs milliseconds at start-up.
let runStateSchema: ReturnType<typeof buildRunStateSchema> | undefined;

function buildRunStateSchema() {
  const item = z.record(z.string(), z.unknown());
  const callItem = z.looseObject({ type: z.literal('function_call'), call_id: z.string(), name: z.string(), arguments: z.string() });
  const outputItem = z.looseObject({ type: z.literal('function_call_output'), call_id: z.string() });
  return z.object({
    version: z.literal(1),
    items: z.array(item),
    steps: z.number().int().nonnegative(),
    usage: z.looseObject({ inputTokens: z.number(), outputTokens: z.number(), totalTokens: z.number() }),
    toolCalls: z.number().int().nonnegative(),
    responseId: z.string().optional(),
    terminate: z.boolean(),
    slots: z.array(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('output'), output: item }),
        z.object({ kind: z.literal('call'), call: callItem, output: outputItem.optional() }),
        z.object({ kind: z.literal('wrapper'), wrapper: callItem, calls: z.array(z.object({ call: callItem, output: outputItem.optional() })) }),
      ]),
    ),
    pending: z.array(
      z.object({
        callId: z.string(),
        toolName: z.string(),
        namespace: z.string().optional(),
        label: z.string(),
        params: z.unknown(),
        arguments: z.string(),
        isReadOnly: z.boolean(),
        isDestructive: z.boolean(),
      }),
    ),
  });
}

/**
 * Checks a stored run state (e.g. read back from a database) and returns it typed.
 * Throws `UsageError` (`code: 'run_state_invalid'`) saying what is wrong when it is not one.
 */
export function parseAgentRunState(value: unknown): AgentRunState {
  runStateSchema ??= buildRunStateSchema();
  const parsed = runStateSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    throw new UsageError('run_state_invalid', `Not an agent run state${where}: ${issue?.message ?? 'invalid'}.`);
  }
  return parsed.data as unknown as AgentRunState;
}
