import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten';
import { MAX_RESULT_SCHEMA_DEPTH, type ClosedSchemaChecker } from './closed-result-schema.js';
import type { JsonObject, JsonValue, TaskRecord, WorkflowLimits } from '@core/control-plane-client';
import { boundText, checkJsonDepth } from './bound-text.js';
import { checkTaskSpec } from './check-task-spec.js';
import { currentThreadId, threadCpuTimeMs } from './thread-cpu-time.js';
import { WORKFLOW_SCRIPT_PRELUDE, wrapWorkflowScript } from './workflow-script-prelude.js';

/** A `task()` call the journal holds, with its outcome so far. */
export interface JournaledTask extends TaskRequest, Pick<TaskRecord, 'status' | 'result' | 'error'> {
  /** When it finished, in the workflow's order of finishes (1, 2, ...); `null` while unfinished. */
  settledOrder: number | null;
  /** When it finished, ms since the epoch; `null` while unfinished. */
  finishedAt: number | null;
}

/** A `task()` call the journal does not hold yet: the advance creates it. */
export type TaskRequest = Pick<TaskRecord, 'sequence' | 'title' | 'prompt' | 'resultSchema'>;

/** How a run of the script ended. */
export type ScriptOutcome = { kind: 'waiting' } | { kind: 'returned'; result: JsonValue } | { kind: 'failed'; error: string };

/** What one run of the script did. */
export interface ScriptRun {
  outcome: ScriptOutcome;
  /** The `task()` calls past the journal, in order. */
  newTasks: TaskRequest[];
  /** Every line the run logged, from the start. */
  log: string[];
  /** Whether the QuickJS module is unusable after this run (a host-level failure): load a fresh one. */
  moduleBroken: boolean;
  /**
   * The error of the first `task()` call this run refused because its result schema is not closed (what the script
   * sees thrown; `checkTaskSpec`), or `undefined` when none was. A failed outcome holding it was that refusal, uncaught.
   */
  schemaRefusal?: string;
}

/** What one run of a workflow script needs. */
export interface ScriptRunInput {
  script: string;
  input: JsonValue;
  /** Seeds `Math.random`. */
  seed: number;
  /** `Date.now()` until the first finished task is settled (then the latest settled task's finish time). */
  startTime: number;
  /** The journal, in sequence order. */
  journal: readonly JournaledTask[];
  /** How many `task()` calls may exist in all. */
  limits: Pick<WorkflowLimits, 'memoryLimitBytes' | 'stackLimitBytes' | 'cpuTimeLimitMs' | 'maxTasksPerWorkflow' | 'maxLogLines' | 'maxLogBytes' | 'maxJsonBytes'>;
  /** Checks `task()` result schemas. */
  schemas: ClosedSchemaChecker;
}

const FILE_NAME = 'workflow.js';
/** Longest `task()` argument, as JSON text (characters). */
export const MAX_TASK_ARGUMENT_CHARS = 512 * 1024;
/** Longest error text a run reports (the rest is cut, with a marker saying how much). */
export const MAX_ERROR_CHARS = 8000;
/** Deepest nesting of a script's return value (arrays and objects). */
export const MAX_RESULT_DEPTH = 64;
/**
 * Deepest nesting of a `task()` argument's JSON that is parsed at all (deeper is refused at once, without a path);
 * within it, the result schema's own limit (`MAX_RESULT_SCHEMA_DEPTH`) is checked with the path where it is passed.
 */
const MAX_TASK_ARGUMENT_DEPTH = 4096;

/** Whether JSON text nests arrays and objects deeper than `max` levels: one pass over the text, no parsing. */
function jsonNestingExceeds(json: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < json.length; index += 1) {
    const code = json.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1; // a backslash: skip the escaped character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === 0x7d || code === 0x5d) depth -= 1;
  }
  return false;
}

/**
 * An interrupt handler for QuickJS that stops a run once it used `limitMs` of this thread's CPU time: it reads the
 * clock on each call and, once `limitMs` of wall-clock time passed, the thread's CPU time (Linux; elsewhere the
 * wall-clock time counts), so a busy machine does not cut a script short. Calls `onLimit` when it stops the run.
 */
function cpuDeadline(limitMs: number, onLimit: () => void = () => {}): () => boolean {
  const threadId = currentThreadId();
  const cpuAtStart = threadId === undefined ? undefined : threadCpuTimeMs(threadId);
  let nextLook = Date.now() + limitMs;
  return () => {
    const now = Date.now();
    if (now <= nextLook) return false;
    const cpu = threadId === undefined || cpuAtStart === undefined ? undefined : threadCpuTimeMs(threadId);
    const used = cpu === undefined ? Number.POSITIVE_INFINITY : cpu - cpuAtStart!;
    if (used > limitMs) {
      onLimit();
      return true;
    }
    // Look again when the rest of the budget could be used up (at least 10 ms on: the clock's resolution).
    nextLook = now + Math.max(10, limitMs - used);
    return false;
  };
}

/**
 * Checks that a workflow script compiles, in a fresh QuickJS runtime. Returns `undefined` when it does, else the
 * syntax error with its line and column.
 */
export function checkWorkflowScript(module: QuickJSWASMModule, script: string, limits: Pick<WorkflowLimits, 'memoryLimitBytes' | 'stackLimitBytes' | 'cpuTimeLimitMs'>): string | undefined {
  const runtime = module.newRuntime();
  try {
    runtime.setMemoryLimit(limits.memoryLimitBytes);
    runtime.setMaxStackSize(limits.stackLimitBytes);
    runtime.setInterruptHandler(cpuDeadline(limits.cpuTimeLimitMs));
    const context = runtime.newContext();
    try {
      const result = context.evalCode(wrapWorkflowScript(script), FILE_NAME, { type: 'global', compileOnly: true });
      if (result.error === undefined) {
        result.value.dispose();
        return undefined;
      }
      const error = context.dump(result.error) as { name?: string; message?: string; stack?: string; lineNumber?: number };
      result.error.dispose();
      const where = /workflow\.js:(\d+):(\d+)/.exec(error.stack ?? '');
      const line = where?.[1] ?? (error.lineNumber === undefined ? undefined : String(error.lineNumber));
      const column = where === null ? undefined : Number(where[2]) - (line === '1' ? '(async () => {'.length : 0);
      return `${error.name ?? 'SyntaxError'}: ${error.message ?? 'the script does not compile'}${line === undefined ? '' : ` (line ${line}${column === undefined ? '' : `, column ${column}`})`}`;
    } finally {
      context.dispose();
    }
  } finally {
    runtime.dispose();
  }
}

/**
 * Runs a workflow script from the start in a fresh QuickJS runtime (memory, stack and CPU-time limits; no host
 * objects but `input`, `task()` and `log()`), replaying the journal: a `task()` call the journal holds at its
 * sequence gets that task's promise, settled from its stored outcome in the order the tasks finished, each once the
 * script has nothing else to do (so a replay sees the same interleaving as the live run); a call past the journal
 * becomes a new task. The run ends when the script returns, throws, or only waits on unfinished tasks. A call that
 * asks for a different task than the journal holds, or a journaled task the run never asks for, fails the workflow
 * as a non-deterministic script. Never throws: host-level failures come back as a failed outcome with
 * `moduleBroken` set.
 */
export function runWorkflowScript(module: QuickJSWASMModule, run: ScriptRunInput): ScriptRun {
  const { limits } = run;
  const newTasks: TaskRequest[] = [];
  const log: string[] = [];
  const requested = new Set<number>();
  let logBytes = 0;
  let nextSequence = 0;
  let schemaRefusal: string | undefined;
  let fatal: string | undefined;
  let deadlineHit = false;
  const overCpu = cpuDeadline(limits.cpuTimeLimitMs, () => {
    deadlineHit = true;
  });

  const stop = (message: string): void => {
    fatal ??= message;
  };

  const onTask = (json: string): string => {
    if (fatal !== undefined) return JSON.stringify({ error: 'the workflow is stopping' });
    if (json.length > MAX_TASK_ARGUMENT_CHARS) {
      return JSON.stringify({ error: `task() takes at most ${MAX_TASK_ARGUMENT_CHARS} characters of JSON (title, prompt and result schema); this call has ${json.length}.` });
    }
    // Nesting bounded before anything recursive sees the value (a schema of 2,000 nested items gets its path).
    if (jsonNestingExceeds(json, MAX_TASK_ARGUMENT_DEPTH)) {
      return JSON.stringify({ error: `task() takes JSON nested at most ${MAX_TASK_ARGUMENT_DEPTH} levels deep (a result schema at most ${MAX_RESULT_SCHEMA_DEPTH}).` });
    }
    const spec = JSON.parse(json) as unknown;
    const resultText = typeof spec === 'object' && spec !== null ? JSON.stringify((spec as { result?: unknown }).result) : undefined;
    const problem = checkTaskSpec(spec, run.schemas, resultText);
    if (problem !== undefined) {
      if (problem.schema) schemaRefusal ??= problem.error;
      return JSON.stringify({ error: problem.error });
    }
    const { title, prompt, result } = spec as { title: string; prompt: string; result: JsonObject };
    const sequence = nextSequence;
    nextSequence += 1;
    if (sequence >= limits.maxTasksPerWorkflow) {
      stop(`The workflow asked for more than ${limits.maxTasksPerWorkflow} tasks, the most one workflow may create.`);
      return JSON.stringify({ error: 'task limit reached' });
    }
    const journaled = run.journal[sequence];
    if (journaled !== undefined) {
      if (journaled.title !== title || journaled.prompt !== prompt || !sameSchema(journaled.resultSchema, result, resultText!)) {
        const what = journaled.title !== title ? 'title' : journaled.prompt !== prompt ? 'prompt' : 'result schema';
        stop(
          `Non-deterministic script: task() call #${sequence + 1} asked for "${title}", but the journal holds "${journaled.title}" at that position (the ${what} differs). A workflow script must make the same task() calls in the same order on every run: derive them only from input and task results (Math.random and Date.now are deterministic).`,
        );
        return JSON.stringify({ error: 'non-deterministic script' });
      }
    } else {
      newTasks.push({ sequence, title, prompt, resultSchema: result });
    }
    requested.add(sequence);
    return JSON.stringify({ sequence });
  };

  // Canonical texts of the schemas seen in this run, by their JSON text (a fan-out repeats one schema many times).
  const canonical = new Map<string, string>();
  const canonicalOf = (schema: unknown): string => {
    const text = JSON.stringify(schema);
    let found = canonical.get(text);
    if (found === undefined) {
      found = canonicalJson(schema);
      canonical.set(text, found);
    }
    return found;
  };
  const sameSchema = (stored: unknown, asked: unknown, askedText: string): boolean => JSON.stringify(stored) === askedText || canonicalOf(stored) === canonicalOf(asked);

  const onLog = (line: string): void => {
    if (fatal !== undefined) return;
    const bytes = Buffer.byteLength(line) + 1;
    if (log.length >= limits.maxLogLines || logBytes + bytes > limits.maxLogBytes) {
      stop(`The workflow's log exceeded its limit (${limits.maxLogLines} lines or ${limits.maxLogBytes} bytes); log less.`);
      return;
    }
    logBytes += bytes;
    log.push(line);
  };

  let runtime: QuickJSRuntime | undefined;
  let context: QuickJSContext | undefined;
  const handles: QuickJSHandle[] = [];
  const keep = (handle: QuickJSHandle): QuickJSHandle => {
    handles.push(handle);
    return handle;
  };
  let outcome: ScriptOutcome;
  try {
    runtime = module.newRuntime();
    runtime.setMemoryLimit(limits.memoryLimitBytes);
    runtime.setMaxStackSize(limits.stackLimitBytes);
    runtime.setInterruptHandler(() => fatal !== undefined || deadlineHit || overCpu());
    context = runtime.newContext();
    const vm = context;
    const settled = (result: ReturnType<QuickJSContext['evalCode']>): QuickJSHandle => {
      if (result.error !== undefined) {
        const error = vm.dump(result.error) as unknown;
        result.error.dispose();
        throw new SandboxStartError(typeof error === 'object' && error !== null ? String((error as { message?: unknown }).message) : String(error));
      }
      return keep(result.value);
    };
    const prelude = settled(vm.evalCode(WORKFLOW_SCRIPT_PRELUDE, 'prelude.js', { type: 'global' }));
    const hostTask = keep(vm.newFunction('hostTask', (handle) => vm.newString(onTask(vm.getString(handle)))));
    const hostLog = keep(vm.newFunction('hostLog', (handle) => {
      onLog(vm.getString(handle));
    }));
    const inputJson = JSON.stringify(run.input ?? null);
    const hooks = settled(
      vm.callFunction(prelude, vm.undefined, hostTask, hostLog, keep(vm.newNumber(run.seed)), keep(vm.newNumber(run.startTime)), keep(vm.newString(inputJson))),
    );
    const settle = keep(vm.getProp(hooks, 'settle'));
    const toJson = keep(vm.getProp(hooks, 'toJson'));
    const describe = keep(vm.getProp(hooks, 'describe'));
    const describeError = (handle: QuickJSHandle): string => {
      const result = vm.callFunction(describe, vm.undefined, handle);
      if (result.error !== undefined) {
        result.error.dispose();
        return 'an error that cannot be described';
      }
      const text = vm.getString(result.value);
      result.value.dispose();
      return text;
    };

    const main = vm.evalCode(wrapWorkflowScript(run.script), FILE_NAME, { type: 'global' });
    let mainPromise: QuickJSHandle | undefined;
    let early: string | undefined;
    if (main.error !== undefined) {
      early = describeError(main.error);
      main.error.dispose();
    } else {
      mainPromise = keep(main.value);
    }

    const finished = run.journal.filter((task) => task.settledOrder !== null).sort((left, right) => left.settledOrder! - right.settledOrder!);
    let next = 0;
    let state: ReturnType<QuickJSContext['getPromiseState']> | undefined;
    while (mainPromise !== undefined && fatal === undefined && !deadlineHit) {
      const jobs = runtime.executePendingJobs(-1);
      if (jobs.error !== undefined) jobs.error.dispose();
      if (fatal !== undefined || deadlineHit) break;
      state = vm.getPromiseState(mainPromise);
      if (state.type !== 'pending') break;
      const task = finished[next];
      if (task === undefined || !requested.has(task.sequence)) break;
      next += 1;
      const ok = task.status === 'succeeded';
      const payload = ok ? JSON.stringify(task.result ?? {}) : settledError(task);
      const result = vm.callFunction(settle, vm.undefined, keep(vm.newNumber(task.sequence)), ok ? vm.true : vm.false, keep(vm.newString(payload)), keep(vm.newNumber(task.finishedAt ?? 0)));
      if (result.error !== undefined) result.error.dispose();
      else result.value.dispose();
    }

    if (fatal !== undefined) outcome = { kind: 'failed', error: fatal };
    else if (deadlineHit) outcome = cpuLimit(limits.cpuTimeLimitMs);
    else if (early !== undefined) outcome = { kind: 'failed', error: explain(early, limits) };
    else if (state?.type === 'fulfilled') {
      const json = vm.callFunction(toJson, vm.undefined, state.value);
      state.value.dispose();
      if (json.error !== undefined) {
        outcome = { kind: 'failed', error: `The script's return value is not JSON: ${describeError(json.error)}.` };
        json.error.dispose();
      } else {
        const text = vm.getString(json.value);
        json.value.dispose();
        if (Buffer.byteLength(text) > limits.maxJsonBytes) {
          outcome = { kind: 'failed', error: `The script's return value is ${Buffer.byteLength(text)} bytes of JSON; at most ${limits.maxJsonBytes} are allowed.` };
        } else {
          const result = JSON.parse(text) as JsonValue;
          const tooDeep = checkJsonDepth(result, MAX_RESULT_DEPTH);
          outcome =
            tooDeep === undefined
              ? { kind: 'returned', result }
              : { kind: 'failed', error: `The script's return value nests deeper than ${MAX_RESULT_DEPTH} levels of arrays and objects (at ${tooDeep}); return flatter data.` };
        }
      }
    } else if (state?.type === 'rejected') {
      outcome = { kind: 'failed', error: explain(describeError(state.error), limits) };
      state.error.dispose();
    } else {
      outcome = { kind: 'waiting' };
    }
    // An uncaught schema refusal is the reason, even when the journal holds that task (stored by an older version).
    const refused = outcome.kind === 'failed' && schemaRefusal !== undefined && outcome.error.includes(schemaRefusal);
    if ((outcome.kind !== 'failed' || fatal === undefined) && !refused) {
      const forgotten = run.journal.find((task) => !requested.has(task.sequence));
      if (forgotten !== undefined && !deadlineHit && early === undefined) {
        outcome = {
          kind: 'failed',
          error: `Non-deterministic script: the journal holds task() call #${forgotten.sequence + 1} ("${forgotten.title}"), which this run of the script never made. A workflow script must make the same task() calls in the same order on every run.`,
        };
      }
    }
  } catch (error) {
    // A host-level failure inside QuickJS (the Node stack exhausted by deep native recursion, a WASM abort): the
    // module's state cannot be trusted any more, so the caller loads a fresh one.
    const stackOverflow = error instanceof RangeError;
    const message =
      error instanceof SandboxStartError
        ? `The sandbox could not start: ${error.message}`
        : stackOverflow
          ? 'The script nested too deeply (stack overflow).'
          : `The sandbox failed: ${error instanceof Error ? error.message : String(error)}`;
    return { outcome: bounded({ kind: 'failed', error: deadlineHit ? cpuLimit(limits.cpuTimeLimitMs).error : message }), newTasks: [], log, moduleBroken: !(error instanceof SandboxStartError) };
  }
  try {
    for (const handle of handles.reverse()) if (handle.alive) handle.dispose();
    context?.dispose();
    runtime?.dispose();
  } catch {
    return { outcome: bounded(outcome), newTasks, log, moduleBroken: true, ...(schemaRefusal === undefined ? {} : { schemaRefusal }) };
  }
  return { outcome: bounded(outcome), newTasks, log, moduleBroken: false, ...(schemaRefusal === undefined ? {} : { schemaRefusal }) };
}

/** A failed outcome's error cut to `MAX_ERROR_CHARS`, with a marker. */
function bounded(outcome: ScriptOutcome): ScriptOutcome {
  return outcome.kind === 'failed' ? { kind: 'failed', error: boundText(outcome.error, MAX_ERROR_CHARS) } : outcome;
}

class SandboxStartError extends Error {}

function settledError(task: JournaledTask): string {
  return task.status === 'cancelled' ? `Task "${task.title}" was cancelled.` : `Task "${task.title}" failed: ${task.error ?? 'no reason given'}`;
}

function cpuLimit(ms: number): { kind: 'failed'; error: string } {
  return { kind: 'failed', error: `The script ran longer than its CPU-time limit of ${ms} ms in one run (an endless loop?).` };
}

/** Names the limit behind QuickJS's own errors. */
function explain(error: string, limits: Pick<WorkflowLimits, 'memoryLimitBytes'>): string {
  if (/out of memory/i.test(error)) return `The script ran out of memory (the limit is ${Math.round(limits.memoryLimitBytes / 1024 / 1024)} MiB per run).`;
  if (/stack overflow/i.test(error)) return 'The script nested too deeply (stack overflow).';
  return error;
}

/** JSON with object keys sorted, so a schema read back from the database compares equal to the script's. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'object' && item !== null && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)))
      : item,
  );
}
