import { type ApprovalPolicy, callNeedsApproval } from '../dispatch/approval-policy.js';
import { type CallScheduler, type CallSchedulerOptions, createCallScheduler } from '../dispatch/call-scheduler.js';
import type { FunctionCallItem, ToolCallOutcome } from '../dispatch/dispatch-options.js';
import { expandParallelWrapper } from '../dispatch/expand-parallel-wrapper.js';
import type { Preparation } from '../dispatch/prepare-call.js';
import type { OutputItemSource, ResponseOutputItem } from '../gateway/model-gateway.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';

const REPLACED = 'The model response it came from was replaced by another (the request was retried)';

/** Whether a call of this tool may start before its response is complete: its `eagerStart`, else `isReadOnly`. */
export function startsEagerly(tool: AnyWorkerAgentTool): boolean {
  return tool.eagerStart ?? tool.isReadOnly;
}

/**
 * The eager-dispatch rule of the loop: a call whose tool `startsEagerly` may start while its response streams, unless
 * it needs approval under `policy` (that waits for the complete response and the policy's answer).
 */
export function startsEarlyUnder(policy: ApprovalPolicy | undefined): (preparation: Preparation) => boolean {
  return (preparation) => {
    const tool = preparation.ok ? preparation.tool : preparation.outcome.tool;
    if (tool === undefined || !startsEagerly(tool)) return false;
    return !(preparation.ok && policy !== undefined && callNeedsApproval(preparation.tool, preparation.params));
  };
}

/** What the calls of a response that will not be run left behind. */
export interface AbandonedCalls {
  /** The outcomes of the calls that got one (started, or failed before starting). */
  outcomes: ToolCallOutcome[];
  /** The call ids of the output items whose calls had started (`execute` was called). */
  startedItemCallIds: Set<string>;
}

/** The function calls of one model call (one step of the loop), fed to a `CallScheduler`. */
export interface StepCalls {
  /**
   * Give it to the gateway's `onOutputItemDone` (eager dispatch): a completed function call is added at once (a
   * `parallel` wrapper as its inner calls), and starts while the response streams when `startsEarly` allows.
   */
  onOutputItemDone(item: ResponseOutputItem, source: OutputItemSource): void;
  /**
   * The response is complete with these calls (in the model's order): the ones not added yet are added, the ones
   * added that are not among them are aborted, and every call runs. One outcome per call, in that order.
   */
  finish(calls: readonly FunctionCallItem[]): Promise<ToolCallOutcome[]>;
  /** The response will not be run (cut off, failed, aborted): see `CallScheduler.abandon`. */
  abandon(reason: string): Promise<AbandonedCalls>;
}

/** One response's scheduler, with the calls added to it and the output item each came from. */
interface Streamed {
  scheduler: CallScheduler;
  responseId: string | undefined;
  added: FunctionCallItem[];
  itemCallIds: Map<string, string>;
}

/**
 * The calls of one step. A scheduler is made on the first completed function call the gateway reports (or at
 * `finish` when it reports none), and anew when items of another response arrive (the request was retried: the
 * calls of the earlier stream are abandoned). A function call item whose `status` is not `completed` (the last item
 * of a cut-off response) is never added early. `onCallsAdded` sees every call added early.
 */
export function stepCalls(
  toolMap: ReadonlyMap<string, AnyWorkerAgentTool>,
  options: CallSchedulerOptions & { onCallsAdded?: (calls: readonly FunctionCallItem[]) => void },
): StepCalls {
  const { onCallsAdded, ...schedulerOptions } = options;
  let current: Streamed | undefined;
  const retired: Array<Promise<ToolCallOutcome[]>> = [];
  const open = (responseId: string | undefined): Streamed => ({
    scheduler: createCallScheduler(toolMap, schedulerOptions),
    responseId,
    added: [],
    itemCallIds: new Map(),
  });
  const settleRetired = async (): Promise<ToolCallOutcome[]> => (await Promise.all(retired)).flat();
  return {
    onOutputItemDone(item, source) {
      if (item.type !== 'function_call' || (item.status !== undefined && item.status !== 'completed')) return;
      if (current !== undefined && source.responseId !== current.responseId) {
        retired.push(current.scheduler.abandon(REPLACED));
        current = undefined;
      }
      current ??= open(source.responseId);
      const calls = expandParallelWrapper(item, toolMap)?.calls ?? [item];
      onCallsAdded?.(calls);
      for (const call of calls) current.itemCallIds.set(call.call_id, item.call_id);
      current.added.push(...calls);
      try {
        current.scheduler.add(calls);
      } catch {
        // Only after `finish` or `abandon` (a late report): the response's calls are decided already.
      }
    },
    async finish(calls) {
      const closing = closeInOrder(current ?? open(undefined), calls);
      if (retired.length === 0) return closing;
      const [outcomes] = await Promise.all([closing, settleRetired()]);
      return outcomes;
    },
    async abandon(reason) {
      const streamed = current;
      const [abandoned, retiredOutcomes] = await Promise.all([streamed?.scheduler.abandon(reason) ?? [], settleRetired()]);
      const startedItemCallIds = new Set<string>();
      for (const outcome of abandoned) {
        const itemCallId = streamed?.itemCallIds.get(outcome.callId);
        if (outcome.started && itemCallId !== undefined) startedItemCallIds.add(itemCallId);
      }
      return { outcomes: [...retiredOutcomes, ...abandoned], startedItemCallIds };
    },
  };
}

/**
 * Closes the scheduler on the response's final calls. Usually they are the calls added while it streamed, in the same
 * order; otherwise the missing ones are added, the extra ones taken out, and the outcomes put in the final order.
 */
async function closeInOrder(streamed: Streamed, calls: readonly FunctionCallItem[]): Promise<ToolCallOutcome[]> {
  const { scheduler, added } = streamed;
  if (added.length === calls.length && added.every((call, index) => call.call_id === (calls[index] as FunctionCallItem).call_id)) return scheduler.close();
  const unmatched = countIds(added);
  const missing: FunctionCallItem[] = [];
  for (const call of calls) {
    const count = unmatched.get(call.call_id) ?? 0;
    if (count > 0) unmatched.set(call.call_id, count - 1);
    else missing.push(call);
  }
  const strays = new Set<string>();
  const kept = new Set(calls.map((call) => call.call_id));
  for (const [callId, count] of unmatched) if (count > 0 && !kept.has(callId)) strays.add(callId);
  scheduler.add(missing);
  if (strays.size > 0) await scheduler.abandon(REPLACED, strays);
  const byId = new Map<string, ToolCallOutcome[]>();
  for (const outcome of await scheduler.close()) {
    const same = byId.get(outcome.callId);
    if (same === undefined) byId.set(outcome.callId, [outcome]);
    else same.push(outcome);
  }
  return calls.map((call) => byId.get(call.call_id)?.shift() as ToolCallOutcome);
}

function countIds(calls: readonly FunctionCallItem[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.call_id, (counts.get(call.call_id) ?? 0) + 1);
  return counts;
}
