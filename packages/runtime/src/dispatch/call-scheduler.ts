import { describeThrown } from '../describe-thrown.js';
import { UsageError } from '../errors.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';
import { abortedOutcome, deniedOutcome, pendingOutcome } from './call-outcomes.js';
import { callDenial, type CallDenial } from './call-denial.js';
import {
  type CallGateAnswer,
  DEFAULT_MAX_CONCURRENCY,
  DEFAULT_TOOL_TIMEOUT_MS,
  type DispatchOptions,
  type FunctionCallItem,
  type ToolCallOutcome,
} from './dispatch-options.js';
import { callFacts, isSequential, type Preparation, prepareCall } from './prepare-call.js';
import { CallTimers, isPromiseLike, type ReadyCall, RunningCall, timeoutFor } from './running-call.js';

/** Options of `createCallScheduler`: dispatch's, and which calls may start before `close`. */
export interface CallSchedulerOptions extends DispatchOptions {
  /**
   * Whether a call may start before `close` (while its response still streams), when the ordering allows. Default:
   * none may; every call waits for `close`.
   */
  startsEarly?: (preparation: Preparation) => boolean;
}

/** The calls of one model response, from the first one known to the last outcome (see `createCallScheduler`). */
export interface CallScheduler {
  /**
   * Adds calls after the ones added before, in the model's order; each is looked up and validated now, and starts as
   * soon as the ordering allows (before `close` only when `startsEarly`).
   * @throws UsageError (`code: 'scheduler_closed'`) after `close` or `abandon`.
   */
  add(calls: readonly FunctionCallItem[]): void;
  /**
   * No more calls: every call may start. Resolves with one outcome per call added (less the ones `abandon` took out),
   * in the order added, once every call ended. @throws UsageError (`code: 'scheduler_closed'`) when closed already.
   */
  close(): Promise<ToolCallOutcome[]>;
  /**
   * The calls will not be run: nothing more starts and the running calls are aborted (their output quotes `reason`,
   * or the turn's abort reason when the turn aborted). Resolves once they all ended with the outcomes the calls got
   * (started or failed ones; held ones not), in the order added. With `callIds`, only those calls are taken out (the
   * rest go on; `close` still waits for the ones running).
   */
  abandon(reason: string, callIds?: ReadonlySet<string>): Promise<ToolCallOutcome[]>;
}

/** One added call: waiting for its turn, starting (the gate is asked), running, or settled with its outcome. */
interface Entry {
  readonly preparation: Preparation;
  readonly sequential: boolean;
  state: 'waiting' | 'starting' | 'running' | 'settled';
  running: RunningCall | undefined;
  outcome: ToolCallOutcome | undefined;
  /** Taken out by `abandon(reason, callIds)`: its outcome is not returned; `reason` is why it stops. */
  withdrawn: { reason: Error } | undefined;
}

/**
 * The one scheduler of function calls: looks each call up (`callKey`) and validates it as it is added, then runs the
 * calls by the model's ordering rules. Consecutive `parallel` calls run concurrently (at most `maxConcurrency` at
 * once, a call asking the gate counting); a `sequential` call waits for every call before it and blocks every call
 * after it; a call that cannot run (unknown tool, invalid arguments) gets its error outcome when its turn comes.
 * Before `close`, only calls for which `startsEarly` is true start (others are waited for, a waiting `sequential`
 * call blocking what follows it).
 *
 * Approvals are the only gate: `options.gate` is asked about each ready call when its turn to start comes. Once it
 * holds a call, the calls after that call's run of parallel calls (from the next `sequential` call on) do not start:
 * when everything before them ended, the gate is asked about each in turn; a denial or hold is recorded, a call it
 * would run is `deferred`.
 *
 * The turn's `signal` aborts the running calls at once; after `close`, every call not started gets an aborted outcome.
 * Each running call gets its timeout (the tool's `timeoutMs`, else `options.timeoutMs`, else 120 s).
 */
export function createCallScheduler(toolMap: ReadonlyMap<string, AnyWorkerAgentTool>, options: CallSchedulerOptions = {}): CallScheduler {
  const { signal, gate, startsEarly, onCallStarted, onCallCompleted } = options;
  const maxConcurrency = normaliseConcurrency(options.maxConcurrency);
  const entries: Entry[] = [];
  const running = new Set<RunningCall>();
  const timers = new CallTimers();
  let phase: 'open' | 'closed' | 'abandoned' = 'open';
  /** Set once the calls must stop (the turn aborted, or `abandon`): its `reason` is what aborted outputs quote. */
  let stop: { reason: unknown } | undefined = signal?.aborted === true ? { reason: signal.reason } : undefined;
  /** Started calls not settled yet (a call asking the gate included). */
  let active = 0;
  /** Calls without their outcome yet (withdrawn ones count as settled). */
  let unsettled = 0;
  /** Every entry before this index is settled; every one before `firstWaiting` has started at least. */
  let firstUnsettled = 0;
  let firstWaiting = 0;
  /** Started sequential calls not settled yet (0 or 1). */
  let sequentialActive = 0;
  /** A call was held: calls from this index on do not start (see `deferRest`). */
  let deferFrom = Number.POSITIVE_INFINITY;
  let holding = false;
  let deferring = false;
  let pumping = false;
  let pumpAgain = false;
  /** Resolved when the scheduler is done: closed with every call settled, or abandoned with none running. */
  let waiters: Array<() => void> = [];

  const onAbort = (): void => {
    stop ??= { reason: signal?.reason };
    stopRunning(stop);
  };
  if (signal !== undefined && stop === undefined) signal.addEventListener('abort', onAbort, { once: true });

  function stopRunning(why: { reason: unknown }): void {
    for (const call of [...running]) call.abort(why);
    pump();
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
        scan();
      } while (pumpAgain);
    } finally {
      pumping = false;
    }
    if (waiters.length > 0 && (phase === 'abandoned' ? active === 0 : phase === 'closed' && unsettled === 0)) {
      signal?.removeEventListener('abort', onAbort);
      const done = waiters;
      waiters = [];
      for (const resolve of done) resolve();
    }
  }

  function scan(): void {
    while (firstUnsettled < entries.length && (entries[firstUnsettled] as Entry).state === 'settled') firstUnsettled += 1;
    // A sequential call that started blocks every call after it (none before it is left) until it ends.
    if (phase === 'abandoned' || deferring || sequentialActive > 0 || (phase === 'open' && startsEarly === undefined)) return;
    while (firstWaiting < entries.length && (entries[firstWaiting] as Entry).state !== 'waiting') firstWaiting += 1;
    for (let index = firstWaiting; index < entries.length; index += 1) {
      const entry = entries[index] as Entry;
      if (entry.state !== 'waiting') continue;
      if (index >= deferFrom) {
        if (phase === 'closed' && index === firstUnsettled) void deferRest(index);
        return;
      }
      if (stop !== undefined) {
        if (phase === 'open') return;
        settle(entry, abortedOutcome(callFacts(entry.preparation), false, 0, stop));
        continue;
      }
      if (phase === 'open' && startsEarly?.(entry.preparation) !== true) {
        if (entry.sequential) return;
        continue;
      }
      const preparation = entry.preparation;
      if (!preparation.ok) {
        settle(entry, preparation.outcome);
        continue;
      }
      if (entry.sequential) {
        if (index === firstUnsettled) begin(entry, preparation);
        return;
      }
      if (active >= maxConcurrency) return;
      begin(entry, preparation);
    }
  }

  /** Asks the gate (a synchronous answer is used at once), then runs the call or settles its denial or hold. */
  function begin(entry: Entry, ready: ReadyCall): void {
    entry.state = 'starting';
    active += 1;
    if (entry.sequential) sequentialActive += 1;
    if (gate === undefined) {
      run(entry, ready);
      return;
    }
    let answer: CallGateAnswer | PromiseLike<CallGateAnswer>;
    try {
      answer = gate(ready.call, ready.tool, ready.params, ready.label);
    } catch (thrown) {
      answer = gateFailure(thrown);
    }
    if (isPromiseLike(answer)) {
      Promise.resolve(answer).then(
        (resolved) => afterGate(entry, ready, resolved),
        (thrown: unknown) => afterGate(entry, ready, gateFailure(thrown)),
      );
    } else {
      afterGate(entry, ready, answer);
    }
  }

  function afterGate(entry: Entry, ready: ReadyCall, answer: CallGateAnswer): void {
    const why = entry.withdrawn ?? stop;
    if (why !== undefined) settle(entry, abortedOutcome(ready, false, 0, why));
    else if (!isGateAnswer(answer)) settle(entry, deniedOutcome(ready, NO_ANSWER));
    else if (answer.action === 'deny') settle(entry, deniedOutcome(ready, callDenial(answer)));
    else if (answer.action === 'hold') {
      hold(entries.indexOf(entry));
      settle(entry, pendingOutcome(ready, 'held', ready.params));
    } else run(entry, ready);
  }

  function run(entry: Entry, ready: ReadyCall): void {
    entry.state = 'running';
    const call = new RunningCall(ready, (ended, outcome) => {
      running.delete(ended);
      if (running.size === 0) timers.idle();
      settle(entry, outcome);
    });
    entry.running = call;
    running.add(call);
    if (onCallStarted !== undefined) {
      try {
        onCallStarted(ready.call, ready.tool, ready.label);
      } catch {
        // Observers cannot break the dispatch.
      }
    }
    call.start(timeoutFor(ready.tool, options.timeoutMs, DEFAULT_TOOL_TIMEOUT_MS), timers);
  }

  /** The call at `index` was held: the calls after its run of parallel calls wait (from the next sequential call on). */
  function hold(index: number): void {
    holding = true;
    let from = index + 1;
    if (!(entries[index] as Entry).sequential) while (from < entries.length && !(entries[from] as Entry).sequential) from += 1;
    if (from < entries.length) deferFrom = Math.min(deferFrom, from);
  }

  /**
   * The calls behind a held one, once everything before them ended: the gate is still asked about each (so every
   * decision of the response is asked for at once); a denial is recorded, a hold kept, and a call the gate would run
   * waits (`deferred`, asked again on resume).
   */
  async function deferRest(from: number): Promise<void> {
    deferring = true;
    for (let index = from; index < entries.length; index += 1) {
      const entry = entries[index] as Entry;
      if (entry.state === 'waiting') settle(entry, await deferredOutcome(entry.preparation));
    }
    deferring = false;
    pump();
  }

  async function deferredOutcome(preparation: Preparation): Promise<ToolCallOutcome> {
    if (gate === undefined || !preparation.ok || stop !== undefined) return pendingOutcome(callFacts(preparation), 'deferred');
    let answer: CallGateAnswer;
    try {
      answer = await gate(preparation.call, preparation.tool, preparation.params, preparation.label);
    } catch (thrown) {
      answer = gateFailure(thrown);
    }
    if (!isGateAnswer(answer)) return deniedOutcome(preparation, NO_ANSWER);
    if (answer.action === 'deny') return deniedOutcome(preparation, callDenial(answer));
    if (answer.action === 'hold') return pendingOutcome(preparation, 'held', preparation.params);
    return pendingOutcome(preparation, 'deferred');
  }

  function settle(entry: Entry, outcome: ToolCallOutcome | undefined): void {
    if (entry.state === 'starting' || entry.state === 'running') {
      active -= 1;
      if (entry.sequential) sequentialActive -= 1;
    }
    entry.state = 'settled';
    entry.outcome = outcome;
    unsettled -= 1;
    if (outcome !== undefined && onCallCompleted !== undefined) {
      try {
        onCallCompleted(outcome);
      } catch {
        // Observers cannot break the dispatch: the history must stay valid.
      }
    }
    pump();
  }

  function outcomes(): ToolCallOutcome[] {
    const list: ToolCallOutcome[] = [];
    for (const entry of entries) if (entry.outcome !== undefined && entry.withdrawn === undefined) list.push(entry.outcome);
    return list;
  }

  function finished(): Promise<void> {
    return new Promise((resolve) => {
      waiters.push(resolve);
      pump();
    });
  }

  function refuseClosed(what: string): void {
    if (phase !== 'open')
      throw new UsageError('scheduler_closed', `Cannot ${what}: the call scheduler was ${phase === 'closed' ? 'closed' : 'abandoned'} already.`);
  }

  return {
    add(calls) {
      refuseClosed('add calls');
      for (const call of calls) {
        const preparation = prepareCall(call, toolMap);
        const sequential = isSequential(preparation);
        if (holding && sequential && deferFrom === Number.POSITIVE_INFINITY) deferFrom = entries.length;
        entries.push({ preparation, sequential, state: 'waiting', running: undefined, outcome: undefined, withdrawn: undefined });
        unsettled += 1;
      }
      pump();
    },
    async close() {
      refuseClosed('close it');
      phase = 'closed';
      if (unsettled > 0) await finished();
      else signal?.removeEventListener('abort', onAbort);
      return outcomes();
    },
    async abandon(reason, callIds) {
      if (callIds !== undefined) {
        for (const entry of entries) if (callIds.has(entry.preparation.call.call_id)) withdraw(entry, reason);
        pump();
        return [];
      }
      if (phase !== 'abandoned') {
        phase = 'abandoned';
        stop ??= { reason: new Error(reason) };
        stopRunning(stop);
      }
      if (active > 0) await finished();
      else signal?.removeEventListener('abort', onAbort);
      return outcomes().filter((outcome) => outcome.pending === undefined);
    },
  };

  function withdraw(entry: Entry, reason: string): void {
    if (entry.withdrawn !== undefined || entry.state === 'settled') return;
    entry.withdrawn = { reason: new Error(reason) };
    if (entry.state === 'waiting') settle(entry, undefined);
    else entry.running?.abort(entry.withdrawn);
  }
}

function normaliseConcurrency(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_CONCURRENCY;
  if (!(value >= 1)) return 1;
  return Math.floor(value);
}

/** A gate that answered nothing usable: no one could be asked about the call. */
const NO_ANSWER: CallDenial = Object.freeze({ by: 'unattended', reason: 'the approval check gave no answer' });

/** A gate that threw denies the call: no one could be asked about it. */
function gateFailure(thrown: unknown): CallGateAnswer {
  return { action: 'deny', by: 'unattended', reason: `the approval check failed: ${describeThrown(thrown)}` };
}

function isGateAnswer(answer: unknown): answer is CallGateAnswer {
  return typeof answer === 'object' && answer !== null && typeof (answer as { action?: unknown }).action === 'string';
}
