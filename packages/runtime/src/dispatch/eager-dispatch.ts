import {
  DEFAULT_MAX_CONCURRENCY,
  dispatchToolCalls,
  type CallGateAnswer,
  type DispatchOptions,
  type FunctionCallItem,
  type ToolCallOutcome,
} from './dispatch-tool-calls.js';
import { expandParallelWrapper } from './expand-parallel-wrapper.js';
import type { OutputItemSource, ResponseOutputItem } from '../gateway/model-gateway.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';

/** Options of `createEagerDispatch`: dispatch's options (the `gate` is given to `finish`), and which calls must wait. */
export interface EagerDispatchOptions extends Omit<DispatchOptions, 'gate'> {
  /**
   * True for a validated call that must not start before the response is complete (the loop: it needs approval under
   * an approval policy); such a call waits and then goes through the `gate` of `finish` like any other.
   */
  waitsForResponse?: (tool: AnyWorkerAgentTool, params: unknown) => boolean;
}

/** The calls of one streaming response, started while it streams (see `createEagerDispatch`). */
export interface EagerDispatch {
  /** Calls of an output item the stream completed, in the model's order (a `parallel` wrapper's inner calls together). */
  add(calls: readonly FunctionCallItem[], itemCallId: string): void;
  /**
   * The response is complete: starts every call of `calls` not started yet, as `dispatchToolCalls` would (calls
   * that started early count as running in their place), and resolves with one outcome per call in that order.
   * A started call that is not in `calls` (a retried stream's) is aborted; it resolves only once every call ended.
   */
  finish(calls: readonly FunctionCallItem[], gate?: DispatchOptions['gate']): Promise<ToolCallOutcome[]>;
  /**
   * The response will not be run (cut off, failed, aborted): nothing more starts, the running calls are aborted
   * (their signal's reason an `Error` with `reason`, which the aborted output and activity quote).
   * Resolves once all of them ended, with the outcomes of the calls that were dispatched and the call ids of the
   * output items whose calls had started (`execute` was called).
   */
  abandon(reason?: string): Promise<{ outcomes: ToolCallOutcome[]; startedItemCallIds: Set<string> }>;
}

/** Whether a call of this tool may start before its response is complete: its `eagerStart`, else `isReadOnly`. */
export function startsEagerly(tool: AnyWorkerAgentTool): boolean {
  return tool.eagerStart ?? tool.isReadOnly;
}

interface Entry {
  call: FunctionCallItem;
  itemCallId: string;
  tool: AnyWorkerAgentTool | undefined;
  sequential: boolean;
  /** waiting: not started yet; running: handed to dispatch; done: has its outcome; later: waits for the whole response. */
  state: 'waiting' | 'running' | 'done' | 'later';
  controller?: AbortController;
  /** Settles once the call was decided (started, failed validation, or held back) and, with `settled`, when it ended. */
  decided?: Promise<void>;
  settled?: Promise<ToolCallOutcome | undefined>;
  outcome?: ToolCallOutcome;
  matched?: boolean;
}

/**
 * Eager dispatch of one streaming response: `add` each function call when its output item is complete; a call
 * whose tool `startsEagerly` (read-only, or opted in with `eagerStart`) starts at once when the model's ordering
 * allows: a `parallel` call when no sequential call before it is unfinished or still waiting (at most
 * `maxConcurrency` at once), a `sequential` one when every call before it has ended. Any other call (and every
 * call behind a waiting sequential one) waits for `finish`. Each call started early runs through
 * `dispatchToolCalls` (validation, timeout, abort, events); the `gate` is not asked before `finish`, and a call for
 * which `waitsForResponse` is true is held back until then.
 */
export function createEagerDispatch(toolMap: ReadonlyMap<string, AnyWorkerAgentTool>, options: EagerDispatchOptions): EagerDispatch {
  const { waitsForResponse, signal, ...base } = options;
  const maxConcurrency = options.maxConcurrency === undefined ? DEFAULT_MAX_CONCURRENCY : Math.max(1, Math.floor(options.maxConcurrency) || 1);
  const entries: Entry[] = [];
  let open = true;
  let pumping = false;
  let pumpAgain = false;
  /** Woken whenever a call started early ends (final calls waiting for a slot or a barrier re-check). */
  let waiters: Array<() => void> = [];
  const wake = (): void => {
    const woken = waiters;
    waiters = [];
    for (const waiter of woken) waiter();
  };
  const abortAll = (reason: unknown): void => {
    open = false;
    for (const entry of entries) entry.controller?.abort(reason);
  };
  const onTurnAbort = (): void => abortAll(signal?.reason);
  if (signal?.aborted === true) open = false;
  else signal?.addEventListener('abort', onTurnAbort, { once: true });
  // The turn's abort reaches the early calls until `finish` or `abandon` has seen every one end.
  const release = (): void => signal?.removeEventListener('abort', onTurnAbort);

  function start(entry: Entry): void {
    entry.state = 'running';
    const controller = new AbortController();
    entry.controller = controller;
    let decide!: () => void;
    entry.decided = new Promise((resolve) => {
      decide = resolve;
    });
    const earlyGate = (_call: FunctionCallItem, tool: AnyWorkerAgentTool, params: unknown): CallGateAnswer => {
      decide();
      if (waitsForResponse?.(tool, params) === true) {
        entry.state = 'later';
        pump();
        return { action: 'hold' };
      }
      return { action: 'run' };
    };
    entry.settled = dispatchToolCalls([entry.call], toolMap, { ...base, signal: controller.signal, gate: earlyGate }).then(
      (outcomes) => {
        decide();
        const outcome = outcomes[0];
        if (outcome === undefined || outcome.pending !== undefined) return undefined;
        entry.outcome = outcome;
        entry.state = 'done';
        pump();
        wake();
        return outcome;
      },
      (error: unknown) => {
        // dispatchToolCalls does not reject; if it ever did, `finish` / `abandon` must not wait for a decision forever.
        decide();
        throw error;
      },
    );
  }

  /** Starts what the ordering allows now; safe to call from inside a start (it then runs again once). */
  function pump(): void {
    if (pumping) {
      pumpAgain = true;
      return;
    }
    pumping = true;
    try {
      do {
        pumpAgain = false;
        if (!open) return;
        let running = 0;
        for (const entry of entries) if (entry.state === 'running' && !entry.sequential) running += 1;
        // Whether some call before the current one has not ended (a sequential call must wait for it).
        let unfinishedBefore = false;
        for (const entry of entries) {
          if (entry.state === 'waiting' && (entry.tool === undefined || !startsEagerly(entry.tool))) entry.state = 'later';
          if (entry.state === 'done') continue;
          if (entry.state === 'waiting') {
            if (entry.sequential) {
              if (!unfinishedBefore) start(entry);
              break;
            }
            if (running >= maxConcurrency) break;
            running += 1;
            start(entry);
          }
          // running or later (or just started): a sequential one blocks everything after it.
          if (entry.sequential && (entry.state as Entry['state']) !== 'done') break;
          unfinishedBefore = true;
        }
      } while (pumpAgain);
    } finally {
      pumping = false;
    }
  }

  async function finish(calls: readonly FunctionCallItem[], gate: DispatchOptions['gate']): Promise<ToolCallOutcome[]> {
    open = false;
    await Promise.all(entries.map((entry) => entry.decided));
    const byId = new Map<string, Entry[]>();
    for (const entry of entries) {
      const same = byId.get(entry.call.call_id);
      if (same === undefined) byId.set(entry.call.call_id, [entry]);
      else same.push(entry);
    }
    const outcomes = new Array<ToolCallOutcome>(calls.length);
    const remaining: FunctionCallItem[] = [];
    const remainingAt: number[] = [];
    const early: Array<Promise<unknown>> = [];
    for (const [index, call] of calls.entries()) {
      const entry = byId.get(call.call_id)?.shift();
      if (entry !== undefined && (entry.state === 'running' || entry.state === 'done') && entry.settled !== undefined) {
        entry.matched = true;
        early.push(entry.settled.then((outcome) => (outcomes[index] = outcome as ToolCallOutcome)));
      } else {
        remaining.push(call);
        remainingAt.push(index);
      }
    }
    const strays = entries.filter((entry) => entry.matched !== true && entry.settled !== undefined);
    const strayReason = new Error('The model response it came from was replaced by another (the request was retried)');
    for (const entry of strays) entry.controller?.abort(strayReason);
    const earlyRunning = entries.filter((entry) => entry.matched === true && entry.state === 'running');
    const dispatched =
      remaining.length === 0
        ? Promise.resolve([])
        : dispatchToolCalls(remaining, toolMap, {
            ...base,
            ...(signal === undefined ? {} : { signal }),
            ...(earlyRunning.length === 0 ? (gate === undefined ? {} : { gate }) : barrierGate(earlyRunning, gate)),
          });
    const [late] = await Promise.all([dispatched, Promise.all(early), Promise.all(strays.map((entry) => entry.settled))]);
    release();
    late.forEach((outcome, position) => (outcomes[remainingAt[position] as number] = outcome));
    return outcomes;
  }

  /**
   * The gate (and completion hook) of the calls that start after the response: each waits, before its real gate is
   * asked, for what ran early in front of it: a parallel call for a sequential call still running and for a free
   * slot of `maxConcurrency` (early calls count), a sequential call for every early call.
   */
  function barrierGate(earlyRunning: Entry[], gate: DispatchOptions['gate']): Pick<DispatchOptions, 'gate' | 'onCallCompleted'> {
    let lateRunning = 0;
    const slotted = new Set<string>();
    const until = (condition: () => boolean): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => {
          if (condition()) resolve();
          else waiters.push(check);
        };
        check();
      });
    const stillRunning = (entry: Entry): boolean => entry.state === 'running';
    const onCallCompleted = base.onCallCompleted;
    return {
      gate: async (call, tool, params, label) => {
        if (tool.executionMode === 'sequential') {
          await until(() => !earlyRunning.some(stillRunning));
        } else {
          await until(() => !earlyRunning.some((entry) => entry.sequential && stillRunning(entry)));
          await until(() => earlyRunning.filter(stillRunning).length + lateRunning < maxConcurrency);
          lateRunning += 1;
          slotted.add(call.call_id);
        }
        if (signal?.aborted === true || gate === undefined) return { action: 'run' };
        return gate(call, tool, params, label);
      },
      onCallCompleted: (outcome) => {
        if (slotted.delete(outcome.callId)) {
          lateRunning -= 1;
          wake();
        }
        onCallCompleted?.(outcome);
      },
    };
  }

  async function abandon(reason = 'The model response it came from will not be used'): Promise<{ outcomes: ToolCallOutcome[]; startedItemCallIds: Set<string> }> {
    abortAll(signal?.aborted === true ? signal.reason : new Error(reason));
    const settled = await Promise.all(entries.map((entry) => entry.settled));
    release();
    const outcomes: ToolCallOutcome[] = [];
    const startedItemCallIds = new Set<string>();
    settled.forEach((outcome, index) => {
      if (outcome === undefined) return;
      outcomes.push(outcome);
      if (outcome.started) startedItemCallIds.add((entries[index] as Entry).itemCallId);
    });
    return { outcomes, startedItemCallIds };
  }

  return {
    add(calls, itemCallId) {
      for (const call of calls) {
        const namespace = typeof call.namespace === 'string' && call.namespace !== '' ? call.namespace : undefined;
        const tool = toolMap.get(namespace === undefined ? call.name : `${namespace}.${call.name}`);
        entries.push({ call, itemCallId, tool, sequential: tool?.executionMode === 'sequential', state: 'waiting' });
      }
      pump();
    },
    finish,
    abandon,
  };
}

/** One model call's eager dispatch as `runAgentLoop` drives it (see `eagerStep`). */
export interface EagerStep {
  /** Give it to the gateway's `onOutputItemDone`: completed function calls are added (a `parallel` wrapper as its inner calls). */
  onOutputItemDone: (item: ResponseOutputItem, source: OutputItemSource) => void;
  /** The response is complete: see `EagerDispatch.finish` (nothing added: a plain `dispatchToolCalls`). */
  finish(calls: readonly FunctionCallItem[], gate?: DispatchOptions['gate']): Promise<ToolCallOutcome[]>;
  /** The response will not be run: see `EagerDispatch.abandon`. */
  abandon(reason?: string): Promise<{ outcomes: ToolCallOutcome[]; startedItemCallIds: Set<string> }>;
}

/**
 * The eager dispatch of one model call: an `EagerDispatch` made on the first completed function call (none when the
 * gateway reports no items), and made anew when items of another response arrive (the request was retried: the
 * calls of the earlier stream are abandoned). A function call item whose `status` is not `completed` (the last item
 * of a cut-off response) is never started. `onCallsAdded` sees every call added.
 */
export function eagerStep(
  toolMap: ReadonlyMap<string, AnyWorkerAgentTool>,
  options: EagerDispatchOptions & { onCallsAdded?: (calls: readonly FunctionCallItem[]) => void },
): EagerStep {
  const { onCallsAdded, ...dispatchOptions } = options;
  let current: EagerDispatch | undefined;
  let responseId: string | undefined;
  const retired: Array<Promise<{ outcomes: ToolCallOutcome[]; startedItemCallIds: Set<string> }>> = [];
  const settleRetired = async (): Promise<ToolCallOutcome[]> => (await Promise.all(retired)).flatMap((retiredStep) => retiredStep.outcomes);
  return {
    onOutputItemDone(item, source) {
      if (item.type !== 'function_call' || (item.status !== undefined && item.status !== 'completed')) return;
      if (current !== undefined && source.responseId !== responseId) {
        retired.push(current.abandon('The model response it came from was replaced by another (the request was retried)'));
        current = undefined;
      }
      responseId = source.responseId;
      current ??= createEagerDispatch(toolMap, dispatchOptions);
      const calls = expandParallelWrapper(item, toolMap)?.calls ?? [item];
      onCallsAdded?.(calls);
      try {
        current.add(calls, item.call_id);
      } catch {
        // Not expected; it must not break the stream: calls not added start after the response, as without eager dispatch.
      }
    },
    async finish(calls, gate) {
      const finishing =
        current === undefined ? dispatchToolCalls(calls, toolMap, { ...dispatchOptions, ...(gate === undefined ? {} : { gate }) }) : current.finish(calls, gate);
      const [outcomes] = await Promise.all([finishing, settleRetired()]);
      return outcomes;
    },
    async abandon(reason) {
      const [abandoned, retiredOutcomes] = await Promise.all([current?.abandon(reason), settleRetired()]);
      return { outcomes: [...retiredOutcomes, ...(abandoned?.outcomes ?? [])], startedItemCallIds: abandoned?.startedItemCallIds ?? new Set() };
    },
  };
}
