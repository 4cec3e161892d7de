import type OpenAI from 'openai';
import type { ActivityStatus } from '../loop/agent-events.js';
import { ToolAbortedError, ToolTimeoutError } from '../errors.js';
import {
  abortedOutputText,
  errorOutputItem,
  isToolContent,
  toolOutputItem,
  type FunctionCallOutputItem,
} from '../tool/tool-output.js';
import { describeThrown } from '../describe-thrown.js';
import type { ArgumentRepair } from '../repair/argument-repair.js';
import { validateToolArguments } from '../validation/validate-tool-arguments.js';
import type { AgentToolResult, AnyWorkerAgentTool, ToolExecutionContext } from '../tool/worker-agent-tool.js';

export type { FunctionCallOutputItem } from '../tool/tool-output.js';

/** A `function_call` item as the model returned it. */
export type FunctionCallItem = OpenAI.Responses.ResponseFunctionToolCall;

/** The per-tool timeout when neither the tool nor the options set one: 2 minutes. */
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;

/** How many `parallel` calls run at once when `maxConcurrency` is not set. */
export const DEFAULT_MAX_CONCURRENCY = 16;

/** How many tool names an "unknown tool" error lists at most. */
const MAX_LISTED_TOOL_NAMES = 40;

/** `setTimeout` cannot wait longer than this; longer timeouts mean "no timeout". */
const MAX_TIMER_MS = 2_147_483_647;

/** Options of `dispatchToolCalls`. */
export interface DispatchOptions {
  /** Aborts every running call; calls not yet started are not started. */
  signal?: AbortSignal;
  /** Default per-tool timeout in ms (a tool's own `timeoutMs` wins). Default 120 000; `Infinity` for none. */
  timeoutMs?: number;
  /** How many `parallel` calls run at once. Default 16. */
  maxConcurrency?: number;
  /**
   * Called when a tool's `execute` starts (after validation). Calls that never start (unknown tool, invalid
   * arguments, aborted before their turn) only get `onCallCompleted`. An exception thrown here is ignored.
   */
  onCallStarted?: (call: FunctionCallItem, tool: AnyWorkerAgentTool, label: string) => void;
  /** Called when a call ends, in completion order, once per call. An exception thrown here is ignored. */
  onCallCompleted?: (outcome: ToolCallOutcome) => void;
  /**
   * Asked about each validated call when its turn to start comes (parallel calls are asked concurrently): `run` it,
   * `deny` it (it gets an error output saying a person declined, and why), or `hold` it (it gets no output; its
   * outcome has `pending: 'held'`). Once a call is held, the next sequential call and every call after it are not
   * started either (`pending: 'deferred'`), so the model's ordering holds; the gate is still asked about them
   * (a denial or hold is recorded at once, a `run` waits). A gate that throws denies the call.
   */
  gate?: (call: FunctionCallItem, tool: AnyWorkerAgentTool, params: unknown, label: string) => CallGateAnswer | Promise<CallGateAnswer>;
}

/** What `DispatchOptions.gate` says about one call. */
export type CallGateAnswer = { action: 'run' } | { action: 'deny'; reason?: string } | { action: 'hold' };

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
  /** Whether `execute` was called (false for unknown tools, invalid arguments and calls aborted before their turn). */
  started: boolean;
  /**
   * Set when the call got no output: `held` by the gate (its validated `params` are kept), or `deferred` because an
   * earlier call was held. Its `output` is a placeholder never to be sent.
   */
  pending?: 'held' | 'deferred';
  /** The validated params, for a held call. */
  params?: unknown;
}

/** A call after lookup and validation, ready to run (or already failed). */
interface PreparedCall {
  call: FunctionCallItem;
  tool: AnyWorkerAgentTool | undefined;
  params: unknown;
  repairs: ArgumentRepair[];
  label: string;
  /** Set when the call cannot run: the outcome to record. */
  failure: ToolCallOutcome | undefined;
}

/** Receives the outcome of the call at `index` of the dispatch, exactly once. */
type Settle = (index: number, outcome: ToolCallOutcome) => void;

/** What one dispatch shares between its calls. */
interface DispatchState {
  options: DispatchOptions;
  outcomes: ToolCallOutcome[];
  running: Set<RunningCall>;
  aborted: boolean;
  maxConcurrency: number;
  /** A call was held: later sequential calls and everything after them wait (are deferred). */
  holding: boolean;
  /** Pending calls whose timeout timer is not armed yet (see `watchTimeout`). */
  unarmed: RunningCall[];
  /** The one `setImmediate` that arms the timers of `unarmed`, when scheduled. */
  armer: ReturnType<typeof setImmediate> | undefined;
}

/**
 * Validates and runs one model response's function calls; one outcome per call, in the model's order.
 *
 * A call is looked up by `namespace.name` when it has a `namespace`, else by `name`. Unknown tools and
 * invalid arguments become error outputs; consecutive `parallel` calls run concurrently (at most
 * `maxConcurrency` at once); a `sequential` call waits for every call before it and blocks every call after
 * it. Each call gets a timeout (the tool's `timeoutMs`, else `options.timeoutMs`, else 120 s) that both ends
 * the wait and aborts the signal the tool received. When `options.signal` aborts, every call not finished
 * gets an aborted output at once and nothing else starts.
 *
 * Never throws for a tool's failure: every failure becomes an error output (`Error: …`) the model sees.
 */
export async function dispatchToolCalls(
  calls: readonly FunctionCallItem[],
  toolMap: ReadonlyMap<string, AnyWorkerAgentTool>,
  options: DispatchOptions = {},
): Promise<ToolCallOutcome[]> {
  const state: DispatchState = {
    options,
    outcomes: new Array<ToolCallOutcome>(calls.length),
    running: new Set(),
    aborted: options.signal?.aborted === true,
    maxConcurrency: normaliseConcurrency(options.maxConcurrency),
    holding: false,
    unarmed: [],
    armer: undefined,
  };
  const signal = options.signal;
  const onAbort = (): void => {
    state.aborted = true;
    for (const running of [...state.running]) running.abort();
  };
  if (signal !== undefined && !state.aborted) signal.addEventListener('abort', onAbort, { once: true });
  try {
    const prepared = new Array<PreparedCall>(calls.length);
    for (let index = 0; index < calls.length; index += 1) prepared[index] = prepareCall(calls[index] as FunctionCallItem, toolMap);
    let index = 0;
    while (index < prepared.length) {
      if (state.holding) {
        for (; index < prepared.length; index += 1) record(state, index, await deferredOutcome(prepared[index] as PreparedCall, state));
        break;
      }
      // A sequential call alone, or a run of parallel calls (calls that cannot run are part of it: they finish at once).
      let end = index + 1;
      if (!isSequential(prepared[index] as PreparedCall)) while (end < prepared.length && !isSequential(prepared[end] as PreparedCall)) end += 1;
      const pending = runCalls(prepared, index, end, state);
      if (pending !== undefined) await pending;
      index = end;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return state.outcomes;
}

function isSequential(prepared: PreparedCall): boolean {
  return prepared.failure === undefined && prepared.tool !== undefined && prepared.tool.executionMode === 'sequential';
}

function normaliseConcurrency(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_CONCURRENCY;
  if (!(value >= 1)) return 1;
  return Math.floor(value);
}

/**
 * Runs `prepared[start..end)` with at most `maxConcurrency` calls in flight and records each outcome. Returns
 * `undefined` when every call ended synchronously (no promise is made), else a promise of the last one's end.
 */
function runCalls(prepared: readonly PreparedCall[], start: number, end: number, state: DispatchState): Promise<void> | undefined {
  let next = start;
  let active = 0;
  let done = start;
  let launching = false;
  let allDone: (() => void) | undefined;
  const settle: Settle = (index, outcome) => {
    record(state, index, outcome);
    active -= 1;
    done += 1;
    launch();
  };
  const launch = (): void => {
    // A call that ends synchronously settles inside the loop below: the loop goes on, no recursion.
    if (launching) return;
    launching = true;
    while (active < state.maxConcurrency && next < end) {
      const index = next;
      next += 1;
      const item = prepared[index] as PreparedCall;
      if (state.aborted) {
        record(state, index, abortedOutcome(item, false, 0, state.options.signal));
        done += 1;
      } else if (item.failure !== undefined) {
        record(state, index, item.failure);
        done += 1;
      } else {
        active += 1;
        gatedRun(item, index, state, settle);
      }
    }
    launching = false;
    if (done === end && allDone !== undefined) allDone();
  };
  launch();
  if (done === end) return undefined;
  return new Promise((resolve) => {
    allDone = resolve;
  });
}

/** Asks the gate (when there is one; a synchronous answer is used at once), then runs the call, or settles its denial or hold. */
function gatedRun(prepared: PreparedCall, index: number, state: DispatchState, settle: Settle): void {
  const gate = state.options.gate;
  if (gate === undefined) {
    runCall(prepared, index, state, settle);
    return;
  }
  let answer: CallGateAnswer | PromiseLike<CallGateAnswer>;
  try {
    answer = gate(prepared.call, prepared.tool as AnyWorkerAgentTool, prepared.params, prepared.label);
  } catch (thrown) {
    answer = gateFailure(thrown);
  }
  if (isPromiseLike(answer)) {
    Promise.resolve(answer).then(
      (resolved) => afterGate(prepared, index, state, settle, resolved),
      (thrown: unknown) => afterGate(prepared, index, state, settle, gateFailure(thrown)),
    );
  } else {
    afterGate(prepared, index, state, settle, answer);
  }
}

function afterGate(prepared: PreparedCall, index: number, state: DispatchState, settle: Settle, answer: CallGateAnswer): void {
  if (state.aborted) settle(index, abortedOutcome(prepared, false, 0, state.options.signal));
  else if (!isGateAnswer(answer)) settle(index, deniedOutcome(prepared, 'the approval check gave no answer'));
  else if (answer.action === 'deny') settle(index, deniedOutcome(prepared, answer.reason));
  else if (answer.action === 'hold') {
    state.holding = true;
    const outcome = pendingOutcome(prepared, 'held');
    outcome.params = prepared.params;
    settle(index, outcome);
  } else runCall(prepared, index, state, settle);
}

function gateFailure(thrown: unknown): CallGateAnswer {
  return { action: 'deny', reason: `the approval check failed (${describeThrown(thrown)})` };
}

function isGateAnswer(answer: unknown): answer is CallGateAnswer {
  return typeof answer === 'object' && answer !== null && typeof (answer as { action?: unknown }).action === 'string';
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}

/**
 * A call that must wait behind a held one: the gate is still asked now (so every decision of the response is asked for
 * at once); a denial is recorded, a hold kept, and a call the gate would run waits (`deferred`, asked again on resume).
 */
async function deferredOutcome(prepared: PreparedCall, state: DispatchState): Promise<ToolCallOutcome> {
  const gate = state.options.gate;
  if (gate === undefined || prepared.failure !== undefined || state.aborted) return pendingOutcome(prepared, 'deferred');
  let answer: CallGateAnswer;
  try {
    answer = await gate(prepared.call, prepared.tool as AnyWorkerAgentTool, prepared.params, prepared.label);
  } catch (thrown) {
    answer = gateFailure(thrown);
  }
  if (!isGateAnswer(answer)) return deniedOutcome(prepared, 'the approval check gave no answer');
  if (answer.action === 'deny') return deniedOutcome(prepared, answer.reason);
  if (answer.action === 'hold') {
    const outcome = pendingOutcome(prepared, 'held');
    outcome.params = prepared.params;
    return outcome;
  }
  return pendingOutcome(prepared, 'deferred');
}

/** The error text a declined call's output carries. */
export function declinedMessage(calledName: string, reason: string | undefined): string {
  const why = reason === undefined || reason.trim() === '' ? 'No reason was given.' : `Reason: ${reason.trim()}`;
  return `not run: a person declined to approve this call of "${calledName}". ${why} Do not repeat the same call; adapt to the reason or ask the user.`;
}

function deniedOutcome(prepared: PreparedCall, reason: string | undefined): ToolCallOutcome {
  return failedOutcome(prepared.call, prepared.tool, prepared.label, declinedMessage(calledNameOf(prepared.call), reason), prepared.repairs);
}

function pendingOutcome(prepared: PreparedCall, pending: 'held' | 'deferred'): ToolCallOutcome {
  const call = prepared.call;
  const outcome = newOutcome(call, prepared.tool, prepared.label, 'error', { type: 'function_call_output', call_id: call.call_id, output: '' }, prepared.repairs, false, 0);
  outcome.pending = pending;
  return outcome;
}

function record(state: DispatchState, index: number, outcome: ToolCallOutcome): void {
  state.outcomes[index] = outcome;
  const onCallCompleted = state.options.onCallCompleted;
  if (onCallCompleted !== undefined) {
    try {
      onCallCompleted(outcome);
    } catch {
      // Observers cannot break the dispatch: the history must stay valid.
    }
  }
}

/** Looks the tool up and validates the arguments; a call that cannot run gets its failure outcome here. */
function prepareCall(call: FunctionCallItem, toolMap: ReadonlyMap<string, AnyWorkerAgentTool>): PreparedCall {
  const calledName = calledNameOf(call);
  const tool = toolMap.get(calledName);
  if (tool === undefined) {
    const message = unknownToolMessage(calledName, toolMap);
    return { call, tool, params: undefined, repairs: [], label: calledName, failure: failedOutcome(call, undefined, calledName, message, []) };
  }
  let validation: ReturnType<typeof validateToolArguments>;
  try {
    validation = validateToolArguments(tool, typeof call.arguments === 'string' ? call.arguments : '');
  } catch (thrown) {
    // validateToolArguments never throws by contract; a bug there must not break the turn's history.
    validation = { ok: false, message: `the arguments could not be checked (${describeThrown(thrown)}).` };
  }
  if (!validation.ok) {
    const message = `invalid arguments for tool "${calledName}": ${validation.message}`;
    return { call, tool, params: undefined, repairs: [], label: calledName, failure: failedOutcome(call, tool, calledName, message, []) };
  }
  const label = activityLabel(tool, validation.params, calledName);
  return { call, tool, params: validation.params, repairs: validation.repairs, label, failure: undefined };
}

/** The name as the model called it: `namespace.name`, or `name` without a namespace. */
function calledNameOf(call: FunctionCallItem): string {
  const namespace = call.namespace;
  return namespace === undefined || namespace === null || namespace === '' ? call.name : `${namespace}.${call.name}`;
}

function unknownToolMessage(calledName: string, toolMap: ReadonlyMap<string, AnyWorkerAgentTool>): string {
  const names = [...toolMap.keys()];
  if (names.length === 0) return `unknown tool "${calledName}": no tools are available in this turn.`;
  const listed = names.slice(0, MAX_LISTED_TOOL_NAMES).join(', ');
  const more = names.length > MAX_LISTED_TOOL_NAMES ? ` (and ${names.length - MAX_LISTED_TOOL_NAMES} more)` : '';
  return `unknown tool "${calledName}". Call one of the available tools: ${listed}${more}.`;
}

/** `describeActivity(params)`, or `fallback` when it throws or gives no text. */
function activityLabel(tool: AnyWorkerAgentTool, params: unknown, fallback: string): string {
  try {
    return labelOr(tool.describeActivity(params), fallback);
  } catch {
    return fallback;
  }
}

/** `describeCompletedActivity(params, result)` when the tool has one, else (or when it throws or gives no text) `label`. */
function completedLabel(tool: AnyWorkerAgentTool, params: unknown, result: AgentToolResult, label: string): string {
  const describeCompleted = tool.describeCompletedActivity;
  if (describeCompleted === undefined) return label;
  try {
    return labelOr(describeCompleted(params, result), label);
  } catch {
    return label;
  }
}

function labelOr(label: unknown, fallback: string): string {
  return typeof label === 'string' && label !== '' ? label : fallback;
}

/** An outcome with every field that always exists set (in one shape); the callers add the optional ones. */
function newOutcome(
  call: FunctionCallItem,
  tool: AnyWorkerAgentTool | undefined,
  label: string,
  status: ActivityStatus,
  output: FunctionCallOutputItem,
  repairs: ArgumentRepair[],
  started: boolean,
  durationMs: number,
): ToolCallOutcome {
  const outcome: ToolCallOutcome = {
    callId: call.call_id,
    name: call.name,
    label,
    completedLabel: label,
    repairs,
    durationMs,
    terminateTurn: false,
    started,
    status,
    output,
  };
  if (call.namespace !== undefined && call.namespace !== null && call.namespace !== '') outcome.namespace = call.namespace;
  if (tool !== undefined) outcome.tool = tool;
  return outcome;
}

function failedOutcome(
  call: FunctionCallItem,
  tool: AnyWorkerAgentTool | undefined,
  label: string,
  message: string,
  repairs: ArgumentRepair[],
): ToolCallOutcome {
  const output = errorOutputItem(call.call_id, message);
  const outcome = newOutcome(call, tool, label, 'error', output, repairs, false, 0);
  outcome.error = output.output as string;
  return outcome;
}

function abortedOutcome(prepared: PreparedCall, started: boolean, durationMs: number, signal: AbortSignal | undefined): ToolCallOutcome {
  const call = prepared.call;
  const text = abortedOutputText({ toolName: prepared.tool?.name ?? call.name, started, signal });
  const output: FunctionCallOutputItem = { type: 'function_call_output', call_id: call.call_id, output: text };
  const outcome = newOutcome(call, prepared.tool, prepared.label, 'aborted', output, prepared.repairs, started, durationMs);
  outcome.error = text;
  return outcome;
}

function timeoutFor(tool: AnyWorkerAgentTool, options: DispatchOptions): number {
  const timeoutMs = tool.timeoutMs ?? options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  return timeoutMs > 0 ? timeoutMs : DEFAULT_TOOL_TIMEOUT_MS;
}

/**
 * One started call that the turn's abort or its timeout can end. The tool's `AbortController` is made only when the
 * tool reads `context.signal` (making an `AbortSignal` costs more than the rest of a call).
 */
class RunningCall {
  controller: AbortController | undefined = undefined;
  abortReason: Error | undefined = undefined;
  settled = false;
  timer: ReturnType<typeof setTimeout> | undefined = undefined;
  timeoutMs = 0;
  readonly startedAt = performance.now();

  constructor(
    readonly prepared: PreparedCall,
    readonly index: number,
    readonly state: DispatchState,
    readonly settle: Settle,
  ) {}

  /** The signal the tool gets (made on first use, aborted already when the call was). */
  signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortReason !== undefined) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  /** The turn aborted: the tool's signal aborts and the call ends at once with an aborted output. */
  abort(): void {
    this.abortTool(new ToolAbortedError((this.prepared.tool as AnyWorkerAgentTool).name));
    this.finish(abortedOutcome(this.prepared, true, this.elapsed(), this.state.options.signal));
  }

  /** The timeout passed: the tool's signal aborts with a `ToolTimeoutError` and the call ends with a timeout output. */
  timedOut(): void {
    const prepared = this.prepared;
    const error = new ToolTimeoutError((prepared.tool as AnyWorkerAgentTool).name, this.timeoutMs);
    this.abortTool(error);
    const output = errorOutputItem(prepared.call.call_id, `${error.message} Try again with a smaller task, or do without this tool.`);
    const outcome = newOutcome(prepared.call, prepared.tool, prepared.label, 'timeout', output, prepared.repairs, true, this.elapsed());
    outcome.error = error.message;
    this.finish(outcome);
  }

  returned(result: unknown): void {
    if (!this.settled) this.finish(resultOutcome(this.prepared, result, this.elapsed()));
  }

  threw(thrown: unknown): void {
    if (!this.settled) this.finish(thrownOutcome(this.prepared, thrown, this.elapsed()));
  }

  /** Arms the timeout timer for what is left of `timeoutMs` (see `watchTimeout`). */
  armTimer(now: number): void {
    if (this.settled) return;
    this.timer = setTimeout(() => this.timedOut(), Math.max(0, this.timeoutMs - (now - this.startedAt)));
  }

  finish(outcome: ToolCallOutcome): void {
    if (this.settled) return;
    this.settled = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    const state = this.state;
    state.running.delete(this);
    if (state.running.size === 0 && state.armer !== undefined) {
      clearImmediate(state.armer);
      state.armer = undefined;
      state.unarmed.length = 0;
    }
    this.settle(this.index, outcome);
  }

  elapsed(): number {
    return performance.now() - this.startedAt;
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
 * The timeout of a call whose `execute` returned a pending promise. The timer is armed only when the call is still
 * running after the current macrotask (one `setImmediate` per dispatch checks them all), for what is left of the
 * timeout: a call that ends within the microtasks of its start (an async tool that needs no I/O) never gets a timer.
 */
function watchTimeout(running: RunningCall, state: DispatchState): void {
  state.unarmed.push(running);
  state.armer ??= setImmediate(armTimers, state);
}

function armTimers(state: DispatchState): void {
  state.armer = undefined;
  const unarmed = state.unarmed;
  state.unarmed = [];
  const now = performance.now();
  for (const running of unarmed) running.armTimer(now);
}

/** Runs one validated call under its timeout and the turn's abort; settles exactly once (at once when `execute` does not return a promise). */
function runCall(prepared: PreparedCall, index: number, state: DispatchState, settle: Settle): void {
  const tool = prepared.tool as AnyWorkerAgentTool;
  const call = prepared.call;
  const options = state.options;
  const running = new RunningCall(prepared, index, state, settle);
  state.running.add(running);
  const onCallStarted = options.onCallStarted;
  if (onCallStarted !== undefined) {
    try {
      onCallStarted(call, tool, prepared.label);
    } catch {
      // Observers cannot break the dispatch.
    }
  }
  let returned: unknown;
  try {
    returned = tool.execute(prepared.params, new CallContext(running, call.call_id, tool.name, tool.namespace));
  } catch (thrown) {
    running.threw(thrown);
    return;
  }
  if (!isPromiseLike(returned)) {
    running.returned(returned);
    return;
  }
  if (running.settled) return;
  returned.then(
    (result) => running.returned(result),
    (thrown: unknown) => running.threw(thrown),
  );
  const timeoutMs = timeoutFor(tool, options);
  if (timeoutMs < MAX_TIMER_MS) {
    running.timeoutMs = timeoutMs;
    watchTimeout(running, state);
  }
}

function thrownOutcome(prepared: PreparedCall, thrown: unknown, durationMs: number): ToolCallOutcome {
  const message = describeThrown(thrown);
  const output = errorOutputItem(prepared.call.call_id, `tool "${calledNameOf(prepared.call)}" failed: ${message}`);
  const outcome = newOutcome(prepared.call, prepared.tool, prepared.label, 'error', output, prepared.repairs, true, durationMs);
  outcome.error = message;
  return outcome;
}

function resultOutcome(prepared: PreparedCall, returned: unknown, durationMs: number): ToolCallOutcome {
  if (returned === null || typeof returned !== 'object' || !isToolContent((returned as { content?: unknown }).content)) {
    return thrownOutcome(
      prepared,
      new Error(
        `it returned no valid result (expected { content: string | input_text/input_image parts }); this is a bug in the tool "${calledNameOf(prepared.call)}"`,
      ),
      durationMs,
    );
  }
  const result = returned as AgentToolResult;
  const tool = prepared.tool as AnyWorkerAgentTool;
  const isError = result.isError === true;
  const outcome = newOutcome(prepared.call, tool, prepared.label, isError ? 'error' : 'success', toolOutputItem(prepared.call.call_id, result.content), prepared.repairs, true, durationMs);
  outcome.completedLabel = completedLabel(tool, prepared.params, result, prepared.label);
  outcome.terminateTurn = result.terminateTurn === true;
  outcome.result = result;
  if (isError) outcome.error = typeof result.content === 'string' ? result.content : 'The tool reported an error.';
  return outcome;
}
