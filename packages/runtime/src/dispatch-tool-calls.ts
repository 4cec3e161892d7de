import type OpenAI from 'openai';
import type { ActivityStatus } from './agent-events.js';
import { ToolAbortedError, ToolTimeoutError } from './errors.js';
import {
  ABORTED_OUTPUT,
  errorOutputItem,
  isToolContent,
  toolOutputItem,
  type FunctionCallOutputItem,
} from './tool-output.js';
import { describeThrown } from './describe-thrown.js';
import type { ArgumentRepair } from './argument-repair.js';
import { validateToolArguments } from './validate-tool-arguments.js';
import type { AgentToolResult, AnyWorkerAgentTool, ToolExecutionContext } from './worker-agent-tool.js';

export type { FunctionCallOutputItem } from './tool-output.js';

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

/** A running call that the turn's abort can end. */
interface RunningCall {
  abort: () => void;
}

/** What one dispatch shares between its calls. */
interface DispatchState {
  options: DispatchOptions;
  outcomes: ToolCallOutcome[];
  running: Set<RunningCall>;
  aborted: boolean;
  maxConcurrency: number;
  /** A call was held: later sequential calls and everything after them wait (are deferred). */
  holding: boolean;
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
  };
  const signal = options.signal;
  const onAbort = (): void => {
    state.aborted = true;
    for (const running of [...state.running]) running.abort();
  };
  if (signal !== undefined && !state.aborted) signal.addEventListener('abort', onAbort, { once: true });
  try {
    const prepared = calls.map((call) => prepareCall(call, toolMap));
    let index = 0;
    while (index < prepared.length) {
      const first = prepared[index] as PreparedCall;
      if (state.holding) {
        for (; index < prepared.length; index += 1) record(state, index, await deferredOutcome(prepared[index] as PreparedCall, state));
        break;
      }
      if (first.tool !== undefined && first.failure === undefined && first.tool.executionMode === 'sequential') {
        if (state.aborted) record(state, index, abortedOutcome(first, false, 0));
        else record(state, index, await gatedRun(first, state));
        index += 1;
        continue;
      }
      // A run of parallel calls (calls that cannot run are part of it: they finish at once).
      let end = index + 1;
      while (end < prepared.length && !isSequential(prepared[end] as PreparedCall)) end += 1;
      await runParallel(prepared, index, end, state);
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

/** Runs `prepared[start..end)` with at most `maxConcurrency` calls in flight; resolves when all are recorded. */
function runParallel(prepared: readonly PreparedCall[], start: number, end: number, state: DispatchState): Promise<void> {
  return new Promise((resolve) => {
    let next = start;
    let active = 0;
    let done = start;
    const launch = (): void => {
      while (active < state.maxConcurrency && next < end) {
        const index = next;
        next += 1;
        const item = prepared[index] as PreparedCall;
        if (state.aborted) {
          record(state, index, abortedOutcome(item, false, 0));
          done += 1;
        } else if (item.failure !== undefined) {
          record(state, index, item.failure);
          done += 1;
        } else {
          active += 1;
          void gatedRun(item, state).then((outcome) => {
            record(state, index, outcome);
            active -= 1;
            done += 1;
            launch();
          });
        }
      }
      if (done === end && active === 0) resolve();
    };
    launch();
  });
}

/** Asks the gate (when there is one), then runs the call, or records its denial or hold. */
async function gatedRun(prepared: PreparedCall, state: DispatchState): Promise<ToolCallOutcome> {
  const gate = state.options.gate;
  if (gate !== undefined) {
    let answer: CallGateAnswer;
    try {
      answer = await gate(prepared.call, prepared.tool as AnyWorkerAgentTool, prepared.params, prepared.label);
    } catch (thrown) {
      answer = { action: 'deny', reason: `the approval check failed (${describeThrown(thrown)})` };
    }
    if (state.aborted) return abortedOutcome(prepared, false, 0);
    if (answer.action === 'deny') return deniedOutcome(prepared, answer.reason);
    if (answer.action === 'hold') {
      state.holding = true;
      return { ...pendingOutcome(prepared, 'held'), params: prepared.params };
    }
  }
  return runCall(prepared, state);
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
    answer = { action: 'deny', reason: `the approval check failed (${describeThrown(thrown)})` };
  }
  if (answer.action === 'deny') return deniedOutcome(prepared, answer.reason);
  if (answer.action === 'hold') return { ...pendingOutcome(prepared, 'held'), params: prepared.params };
  return pendingOutcome(prepared, 'deferred');
}

/** The error text a declined call's output carries. */
export function declinedMessage(calledName: string, reason: string | undefined): string {
  const why = reason === undefined || reason.trim() === '' ? 'No reason was given.' : `Reason: ${reason.trim()}`;
  return `not run: a person declined to approve this call of "${calledName}". ${why} Do not repeat the same call; adapt to the reason or ask the user.`;
}

function deniedOutcome(prepared: PreparedCall, reason: string | undefined): ToolCallOutcome {
  const calledName = prepared.call.namespace ? `${prepared.call.namespace}.${prepared.call.name}` : prepared.call.name;
  const outcome = failedOutcome(prepared.call, prepared.tool, prepared.label, declinedMessage(calledName, reason), prepared.repairs);
  return outcome;
}

function pendingOutcome(prepared: PreparedCall, pending: 'held' | 'deferred'): ToolCallOutcome {
  return {
    ...baseOutcome(prepared.call, prepared.tool, prepared.label),
    repairs: prepared.repairs,
    status: 'error',
    output: { type: 'function_call_output', call_id: prepared.call.call_id, output: '' },
    pending,
  };
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
  const namespace = call.namespace === undefined || call.namespace === null || call.namespace === '' ? undefined : call.namespace;
  const tool = toolMap.get(namespace === undefined ? call.name : `${namespace}.${call.name}`);
  const calledName = namespace === undefined ? call.name : `${namespace}.${call.name}`;
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
  const label = safeLabel(() => tool.describeActivity(validation.params), calledName);
  return { call, tool, params: validation.params, repairs: validation.repairs, label, failure: undefined };
}

function unknownToolMessage(calledName: string, toolMap: ReadonlyMap<string, AnyWorkerAgentTool>): string {
  const names = [...toolMap.keys()];
  if (names.length === 0) return `unknown tool "${calledName}": no tools are available in this turn.`;
  const listed = names.slice(0, MAX_LISTED_TOOL_NAMES).join(', ');
  const more = names.length > MAX_LISTED_TOOL_NAMES ? ` (and ${names.length - MAX_LISTED_TOOL_NAMES} more)` : '';
  return `unknown tool "${calledName}". Call one of the available tools: ${listed}${more}.`;
}

function safeLabel(describe: () => unknown, fallback: string): string {
  try {
    const label = describe();
    return typeof label === 'string' && label !== '' ? label : fallback;
  } catch {
    return fallback;
  }
}

function baseOutcome(call: FunctionCallItem, tool: AnyWorkerAgentTool | undefined, label: string): Omit<ToolCallOutcome, 'status' | 'output'> {
  const outcome: Omit<ToolCallOutcome, 'status' | 'output'> = {
    callId: call.call_id,
    name: call.name,
    label,
    completedLabel: label,
    repairs: [],
    durationMs: 0,
    terminateTurn: false,
    started: false,
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
  return { ...baseOutcome(call, tool, label), repairs, status: 'error', output, error: output.output as string };
}

function abortedOutcome(prepared: PreparedCall, started: boolean, durationMs: number): ToolCallOutcome {
  return {
    ...baseOutcome(prepared.call, prepared.tool, prepared.label),
    repairs: prepared.repairs,
    status: 'aborted',
    output: { type: 'function_call_output', call_id: prepared.call.call_id, output: ABORTED_OUTPUT },
    error: ABORTED_OUTPUT,
    started,
    durationMs,
  };
}

function timeoutFor(tool: AnyWorkerAgentTool, options: DispatchOptions): number {
  const timeoutMs = tool.timeoutMs ?? options.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  return timeoutMs > 0 ? timeoutMs : DEFAULT_TOOL_TIMEOUT_MS;
}

/**
 * Runs one validated call under its timeout and the turn's abort; always resolves with an outcome.
 * The tool's `AbortController` is made only when the tool reads `context.signal` (making an `AbortSignal` costs
 * more than the rest of a call), and the timer only when `execute` returns a pending promise.
 */
function runCall(prepared: PreparedCall, state: DispatchState): Promise<ToolCallOutcome> {
  const tool = prepared.tool as AnyWorkerAgentTool;
  const call = prepared.call;
  const options = state.options;
  return new Promise((resolve) => {
    const startedAt = performance.now();
    let controller: AbortController | undefined;
    let abortReason: Error | undefined;
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const abortTool = (reason: Error): void => {
      abortReason ??= reason;
      controller?.abort(reason);
    };
    const running: RunningCall = {
      abort: () => {
        abortTool(new ToolAbortedError(tool.name));
        finish(abortedOutcome(prepared, true, performance.now() - startedAt));
      },
    };
    const finish = (outcome: ToolCallOutcome): void => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      state.running.delete(running);
      resolve(outcome);
    };
    state.running.add(running);
    const onCallStarted = options.onCallStarted;
    if (onCallStarted !== undefined) {
      try {
        onCallStarted(call, tool, prepared.label);
      } catch {
        // Observers cannot break the dispatch.
      }
    }
    const context: ToolExecutionContext = {
      get signal(): AbortSignal {
        if (controller === undefined) {
          controller = new AbortController();
          if (abortReason !== undefined) controller.abort(abortReason);
        }
        return controller.signal;
      },
      callId: call.call_id,
      toolName: tool.name,
    };
    if (tool.namespace !== undefined) context.namespace = tool.namespace;
    let returned: unknown;
    try {
      returned = tool.execute(prepared.params, context);
    } catch (thrown) {
      finish(thrownOutcome(prepared, thrown, performance.now() - startedAt));
      return;
    }
    if (returned === null || typeof returned !== 'object' || typeof (returned as PromiseLike<unknown>).then !== 'function') {
      finish(resultOutcome(prepared, returned, performance.now() - startedAt));
      return;
    }
    if (settled) return;
    const timeoutMs = timeoutFor(tool, options);
    if (timeoutMs < MAX_TIMER_MS) {
      timer = setTimeout(() => {
        const error = new ToolTimeoutError(tool.name, timeoutMs);
        abortTool(error);
        const output = errorOutputItem(call.call_id, `${error.message} Try again with a smaller task, or do without this tool.`);
        finish({
          ...baseOutcome(call, tool, prepared.label),
          repairs: prepared.repairs,
          status: 'timeout',
          output,
          error: error.message,
          started: true,
          durationMs: performance.now() - startedAt,
        });
      }, timeoutMs);
    }
    (returned as PromiseLike<unknown>).then(
      (result) => finish(resultOutcome(prepared, result, performance.now() - startedAt)),
      (thrown: unknown) => finish(thrownOutcome(prepared, thrown, performance.now() - startedAt)),
    );
  });
}

function thrownOutcome(prepared: PreparedCall, thrown: unknown, durationMs: number): ToolCallOutcome {
  const calledName = prepared.call.namespace ? `${prepared.call.namespace}.${prepared.call.name}` : prepared.call.name;
  const message = describeThrown(thrown);
  const output = errorOutputItem(prepared.call.call_id, `tool "${calledName}" failed: ${message}`);
  return {
    ...baseOutcome(prepared.call, prepared.tool, prepared.label),
    repairs: prepared.repairs,
    status: 'error',
    output,
    error: message,
    started: true,
    durationMs,
  };
}

function resultOutcome(prepared: PreparedCall, returned: unknown, durationMs: number): ToolCallOutcome {
  if (returned === null || typeof returned !== 'object' || !isToolContent((returned as { content?: unknown }).content)) {
    const calledName = prepared.call.namespace ? `${prepared.call.namespace}.${prepared.call.name}` : prepared.call.name;
    return thrownOutcome(
      prepared,
      new Error(`it returned no valid result (expected { content: string | input_text/input_image parts }); this is a bug in the tool "${calledName}"`),
      durationMs,
    );
  }
  const result = returned as AgentToolResult;
  const tool = prepared.tool as AnyWorkerAgentTool;
  const describeCompleted = tool.describeCompletedActivity;
  const completedLabel =
    describeCompleted === undefined ? prepared.label : safeLabel(() => describeCompleted(prepared.params, result), prepared.label);
  const outcome: ToolCallOutcome = {
    ...baseOutcome(prepared.call, tool, prepared.label),
    completedLabel,
    repairs: prepared.repairs,
    status: result.isError === true ? 'error' : 'success',
    output: toolOutputItem(prepared.call.call_id, result.content),
    result,
    started: true,
    durationMs,
    terminateTurn: result.terminateTurn === true,
  };
  if (result.isError === true) outcome.error = typeof result.content === 'string' ? result.content : 'The tool reported an error.';
  return outcome;
}
