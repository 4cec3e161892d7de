import { ToolAbortedError, ToolTimeoutError } from '../errors.js';
import type { AnyWorkerAgentTool, ToolExecutionContext } from '../tool/worker-agent-tool.js';
import { abortedOutcome, resultOutcome, thrownOutcome, timeoutOutcome } from './call-outcomes.js';
import type { ToolCallOutcome } from './dispatch-options.js';
import type { Preparation } from './prepare-call.js';

/** `setTimeout` cannot wait longer than this; longer timeouts mean "no timeout". */
const MAX_TIMER_MS = 2_147_483_647;

/** A call ready to run. */
export type ReadyCall = Extract<Preparation, { ok: true }>;

/**
 * One started call that the turn's abort or its timeout can end; it reports its outcome to `onEnd` exactly once. The
 * tool's `AbortController` is made only when the tool reads `context.signal` (making an `AbortSignal` costs more than
 * the rest of a call).
 */
export class RunningCall {
  controller: AbortController | undefined = undefined;
  abortReason: Error | undefined = undefined;
  settled = false;
  timer: ReturnType<typeof setTimeout> | undefined = undefined;
  timeoutMs = 0;
  readonly startedAt = performance.now();

  constructor(
    readonly ready: ReadyCall,
    private readonly onEnd: (running: RunningCall, outcome: ToolCallOutcome) => void,
  ) {}

  /**
   * Calls `execute` with the validated params; a pending promise gets the timeout (`timeoutMs`, see `CallTimers`).
   * Ends at once when `execute` throws or returns no promise.
   */
  start(timeoutMs: number, timers: CallTimers): void {
    const { tool, call, params } = this.ready;
    let returned: unknown;
    try {
      returned = tool.execute(params, new CallContext(this, call.call_id, tool.name, tool.namespace));
    } catch (thrown) {
      this.threw(thrown);
      return;
    }
    if (!isPromiseLike(returned)) {
      this.returned(returned);
      return;
    }
    if (this.settled) return;
    returned.then(
      (result) => this.returned(result),
      (thrown: unknown) => this.threw(thrown),
    );
    if (timeoutMs < MAX_TIMER_MS) {
      this.timeoutMs = timeoutMs;
      timers.watch(this);
    }
  }

  /** The signal the tool gets (made on first use, aborted already when the call was). */
  signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortReason !== undefined) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  /** The turn aborted (`stop.reason` says why): the tool's signal aborts and the call ends at once with an aborted output. */
  abort(stop: { reason?: unknown }): void {
    this.abortTool(new ToolAbortedError(this.ready.tool.name));
    this.finish(abortedOutcome(this.ready, true, this.elapsed(), stop));
  }

  /** The timeout passed: the tool's signal aborts with a `ToolTimeoutError` and the call ends with a timeout output. */
  timedOut(): void {
    const error = new ToolTimeoutError(this.ready.tool.name, this.timeoutMs);
    this.abortTool(error);
    this.finish(timeoutOutcome(this.ready, error.message, this.elapsed()));
  }

  returned(result: unknown): void {
    if (!this.settled) this.finish(resultOutcome(this.ready, this.ready.params, result, this.elapsed()));
  }

  threw(thrown: unknown): void {
    if (!this.settled) this.finish(thrownOutcome(this.ready, thrown, this.elapsed()));
  }

  /** Arms the timeout timer for what is left of `timeoutMs` (see `CallTimers`). */
  armTimer(now: number): void {
    if (this.settled) return;
    this.timer = setTimeout(() => this.timedOut(), Math.max(0, this.timeoutMs - (now - this.startedAt)));
  }

  private finish(outcome: ToolCallOutcome): void {
    if (this.settled) return;
    this.settled = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.onEnd(this, outcome);
  }

  private elapsed(): number {
    return Math.round(performance.now() - this.startedAt);
  }

  private abortTool(reason: Error): void {
    this.abortReason ??= reason;
    this.controller?.abort(reason);
  }
}

/** The `context` a tool's `execute` gets; `signal` is made on first read. */
class CallContext implements ToolExecutionContext {
  declare namespace?: string;
  readonly #running: RunningCall;

  constructor(
    running: RunningCall,
    readonly callId: string,
    readonly toolName: string,
    namespace: string | undefined,
  ) {
    this.#running = running;
    if (namespace !== undefined) this.namespace = namespace;
  }

  get signal(): AbortSignal {
    return this.#running.signal();
  }
}

/**
 * The timeouts of the calls whose `execute` returned a pending promise. A timer is armed only when the call is still
 * running after the current macrotask (one `setImmediate` per scheduler checks them all), for what is left of the
 * timeout: a call that ends within the microtasks of its start (an async tool that needs no I/O) never gets a timer.
 */
export class CallTimers {
  private unarmed: RunningCall[] = [];
  private armer: ReturnType<typeof setImmediate> | undefined = undefined;

  watch(running: RunningCall): void {
    this.unarmed.push(running);
    this.armer ??= setImmediate(() => this.arm());
  }

  /** Nothing runs any more: drop the pending check (no immediate is left behind). */
  idle(): void {
    if (this.armer === undefined) return;
    clearImmediate(this.armer);
    this.armer = undefined;
    this.unarmed.length = 0;
  }

  private arm(): void {
    this.armer = undefined;
    const unarmed = this.unarmed;
    this.unarmed = [];
    const now = performance.now();
    for (const running of unarmed) running.armTimer(now);
  }
}

/** The per-call timeout: the tool's `timeoutMs`, else the dispatch default, else 120 s (a non-positive one counts as unset). */
export function timeoutFor(tool: AnyWorkerAgentTool, defaultMs: number | undefined, fallbackMs: number): number {
  const timeoutMs = tool.timeoutMs ?? defaultMs ?? fallbackMs;
  return timeoutMs > 0 ? timeoutMs : fallbackMs;
}

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}
