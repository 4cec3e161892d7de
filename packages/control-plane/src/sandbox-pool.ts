import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ControlPlaneFailure, type JsonObject, type ResultSchemaProblem, type WorkflowLimits } from '@core/control-plane-client';
import type { SandboxJob, SandboxThreadData, SandboxThreadMessage } from './sandbox-protocol.js';
import { threadCpuTimeMs } from './thread-cpu-time.js';
import type { JournaledTask, ScriptRun, ScriptRunInput } from './workflow-sandbox.js';

/** A run of a workflow script in a sandbox thread: what it did, or why the pool ended it. */
export type SandboxRunResult =
  | { kind: 'ran'; run: ScriptRun }
  /** The thread was terminated: the run overran its CPU time, or the thread failed. The workflow fails with `error`. */
  | { kind: 'cut'; error: string }
  /** The run overran the wall-clock backstop before its CPU time (a busy machine): worth another attempt. */
  | { kind: 'busy'; error: string };

/** What a run needs (the pool's thread checks `task()` result schemas itself). */
export type SandboxRunInput = Omit<ScriptRunInput, 'schemas' | 'journal'> & { journal: readonly JournaledTask[] };

/** Options of `createSandboxPool`. */
export interface SandboxPoolOptions {
  /** Most sandbox threads, each running one script at a time (default 2). */
  threads?: number;
  limits: Pick<WorkflowLimits, 'memoryLimitBytes' | 'cpuTimeLimitMs'>;
  /** Retire a thread once its WebAssembly memory grew this much (default 8 MiB). */
  retireAfterGrowthBytes?: number;
  /** Retire a thread after this many jobs (default 1000). */
  retireAfterJobs?: number;
  /**
   * The wall-clock backstop: a run still going after this long is ended as `busy` (default
   * `4 × cpuTimeLimitMs + 250` ms; the workflow engine uses at least half the advance lease).
   */
  wallLimitMs?: number;
}

/** Worker threads that run workflow scripts off the control plane's thread, with hard CPU-time and memory limits. */
export interface SandboxPool {
  /**
   * Runs a script; resolves when it ran or was cut (never rejects for anything the script does).
   * @throws ControlPlaneFailure (`sandbox_closed`) when the pool closed first (nothing is to be stored).
   */
  run(input: SandboxRunInput): Promise<SandboxRunResult>;
  /** Checks that a script compiles: `undefined`, or the problem (a syntax error with its line and column). */
  check(script: string, limits: ScriptRunInput['limits']): Promise<string | undefined>;
  /**
   * Checks a task result against its result schema (Ajv, every `pattern` in linear time) in a sandbox thread, under
   * the same CPU-time cut as a run: the mismatches with their paths (empty when it matches).
   */
  validate(schema: JsonObject, value: unknown): Promise<ResultSchemaProblem[]>;
  /** Terminates the threads; queued and running jobs reject with `sandbox_closed`. */
  close(): Promise<void>;
  /** How many threads are alive now (for tests and benches). */
  readonly threadCount: number;
}

/** Margin over the CPU-time limit before the pool terminates a run's thread (the script's own check comes first). */
export const CPU_CUT_MARGIN_MS = 250;
/** How often the pool reads the CPU time of its busy threads. */
const POLL_MS = 20;
/** A thread's JavaScript heap (its own objects, not the script's: those live in the WebAssembly memory). */
const THREAD_HEAP_MB = 256;

type Answer =
  | { kind: 'ran'; run: ScriptRun }
  | { kind: 'checked'; problem: string | undefined }
  | { kind: 'validated'; problems: ResultSchemaProblem[] }
  | { kind: 'cut' | 'busy'; error: string }
  | { kind: 'closed' };

interface PendingJob {
  job: SandboxJob;
  resolve(answer: Answer): void;
}

interface SandboxThread {
  worker: Worker;
  state: 'starting' | 'idle' | 'busy' | 'gone';
  threadId: number | undefined;
  current: PendingJob | undefined;
  startedAt: number;
  cpuAtStart: number | undefined;
}

/**
 * Creates a pool of sandbox threads (started on first use, `threads` at most). Each job runs on one thread, in a
 * fresh QuickJS runtime; queued jobs wait for a free thread (that wait counts toward no limit). A run is ended by
 * terminating its thread once the thread used `cpuTimeLimitMs + 250` ms of CPU time on it (read from
 * `/proc/self/task/<tid>/stat`), whatever the script is doing (a long native call, a loop of short ones); the
 * wall-clock backstop (`wallLimitMs`) ends a run the machine was too busy to give its CPU time (or where CPU time
 * cannot be read: then it counts as the CPU limit). Termination is not awaited: the caller gets its
 * answer at once and a fresh thread replaces the old one. A thread retires (and is replaced) after
 * `retireAfterJobs` jobs, once its WebAssembly memory grew by `retireAfterGrowthBytes`, or after a host-level
 * failure, so memory a script took is given back to the system.
 */
export function createSandboxPool(options: SandboxPoolOptions): SandboxPool {
  const size = options.threads ?? 2;
  if (!(Number.isInteger(size) && size > 0)) throw new RangeError(`sandboxThreads must be a positive integer, got ${String(size)}.`);
  const { cpuTimeLimitMs, memoryLimitBytes } = options.limits;
  const data: SandboxThreadData = {
    memoryLimitBytes,
    retireAfterGrowthBytes: options.retireAfterGrowthBytes ?? 8 * 1024 * 1024,
    retireAfterJobs: options.retireAfterJobs ?? 1000,
  };
  const wallLimitMs = options.wallLimitMs ?? 4 * cpuTimeLimitMs + CPU_CUT_MARGIN_MS;
  const entry = sandboxWorkerFile();
  const threads = new Set<SandboxThread>();
  const queue: PendingJob[] = [];
  let nextId = 1;
  let poll: NodeJS.Timeout | undefined;
  let closed = false;

  const cpuLimit = (): string => `The script ran longer than its CPU-time limit of ${cpuTimeLimitMs} ms in one run (an endless loop, or a native call that does not return?); its thread was stopped.`;

  const end = (thread: SandboxThread, problem?: string): void => {
    if (thread.state === 'gone') return;
    // A thread that fails before it is ready would fail the same way again: the waiting jobs fail with it.
    if (thread.state === 'starting') {
      for (const pending of queue.splice(0)) pending.resolve({ kind: 'cut', error: `The sandbox thread could not start: ${problem ?? 'it stopped'}.` });
    }
    thread.state = 'gone';
    threads.delete(thread);
    thread.worker.removeAllListeners('message');
    // Not awaited: the thread stops in the background; its answer (if any) is ignored.
    void thread.worker.terminate().catch(() => {});
    if (!closed && queue.length > 0) dispatch();
  };

  const finish = (thread: SandboxThread, answer: Answer): void => {
    const pending = thread.current;
    thread.current = undefined;
    if (pending !== undefined) pending.resolve(answer);
  };

  const spawn = (): SandboxThread => {
    // No Node options of this process (a test runner's --conditions, an --inspect port): the thread needs none.
    const worker = new Worker(entry, { workerData: data, execArgv: [], resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
    const thread: SandboxThread = { worker, state: 'starting', threadId: undefined, current: undefined, startedAt: 0, cpuAtStart: undefined };
    threads.add(thread);
    worker.on('message', (message: SandboxThreadMessage) => {
      if (message.kind === 'ready') {
        thread.threadId = message.threadId;
        thread.state = 'idle';
        worker.unref();
        dispatch();
        return;
      }
      if (thread.current?.job.id !== message.id) return;
      const retire = message.retire;
      finish(
        thread,
        message.kind === 'ran'
          ? { kind: 'ran', run: message.run }
          : message.kind === 'checked'
            ? { kind: 'checked', problem: message.problem }
            : { kind: 'validated', problems: message.problems },
      );
      if (retire) end(thread);
      else {
        thread.state = 'idle';
        worker.unref();
      }
      dispatch();
    });
    worker.on('messageerror', (error) => {
      finish(thread, { kind: 'cut', error: `The sandbox's answer could not be read (${error.message}).` });
      end(thread);
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      finish(thread, { kind: 'cut', error: outOfMemory ? `The script ran out of memory (the sandbox thread's heap of ${THREAD_HEAP_MB} MiB).` : `The sandbox thread failed: ${error.message}` });
      end(thread, error.message);
    });
    worker.on('exit', () => {
      finish(thread, { kind: 'cut', error: 'The sandbox thread stopped unexpectedly.' });
      end(thread);
    });
    return thread;
  };

  const dispatch = (): void => {
    while (!closed && queue.length > 0) {
      const idle = [...threads].find((thread) => thread.state === 'idle');
      if (idle === undefined) {
        const starting = [...threads].filter((thread) => thread.state === 'starting').length;
        if (threads.size < size && starting < queue.length) {
          spawn().worker.ref();
          continue;
        }
        return;
      }
      const pending = queue.shift()!;
      idle.state = 'busy';
      idle.current = pending;
      idle.startedAt = performance.now();
      idle.cpuAtStart = idle.threadId === undefined ? undefined : threadCpuTimeMs(idle.threadId);
      idle.worker.ref();
      idle.worker.postMessage(pending.job);
      poll ??= setInterval(watch, POLL_MS);
    }
  };

  /** Ends the runs that overran their CPU time or the wall-clock backstop. */
  const watch = (): void => {
    const now = performance.now();
    let busy = 0;
    for (const thread of threads) {
      if (thread.state !== 'busy') continue;
      busy += 1;
      const cpu = thread.threadId === undefined || thread.cpuAtStart === undefined ? undefined : threadCpuTimeMs(thread.threadId);
      const used = cpu === undefined ? undefined : cpu - thread.cpuAtStart!;
      if (used !== undefined && used > cpuTimeLimitMs + CPU_CUT_MARGIN_MS) {
        finish(thread, { kind: 'cut', error: cpuLimit() });
        end(thread);
      } else if (now - thread.startedAt > wallLimitMs) {
        const wall = Math.round(now - thread.startedAt);
        finish(
          thread,
          used === undefined
            ? { kind: 'cut', error: cpuLimit() }
            : {
                kind: 'busy',
                error: `The script's run was stopped after ${wall} ms of wall-clock time with ${used} ms of CPU time used (the machine is too busy to give it its ${cpuTimeLimitMs} ms).`,
              },
        );
        end(thread);
      }
    }
    if (busy === 0 && poll !== undefined) {
      clearInterval(poll);
      poll = undefined;
    }
  };

  const submit = (job: SandboxJob extends infer J ? (J extends SandboxJob ? Omit<J, 'id'> : never) : never): Promise<Answer> => {
    if (closed) return Promise.resolve({ kind: 'closed' });
    return new Promise<Answer>((resolve) => {
      queue.push({ job: { ...job, id: nextId++ } as SandboxJob, resolve });
      dispatch();
    });
  };

  return {
    async run(input) {
      const answer = await submit({ kind: 'run', input });
      if (answer.kind === 'closed') throw poolClosed();
      if (answer.kind === 'ran' || answer.kind === 'cut' || answer.kind === 'busy') return answer;
      throw new Error(`The sandbox answered a run with ${answer.kind}.`);
    },
    async check(script, limits) {
      const answer = await submit({ kind: 'check', script, limits });
      if (answer.kind === 'closed') throw poolClosed();
      if (answer.kind === 'checked') return answer.problem;
      if (answer.kind === 'cut' || answer.kind === 'busy') return answer.kind === 'busy' ? `the sandbox could not check it in time (${answer.error}); try again` : answer.error;
      throw new Error(`The sandbox answered a check with ${answer.kind}.`);
    },
    async validate(schema, value) {
      const answer = await submit({ kind: 'validate', schema, value });
      if (answer.kind === 'closed') throw poolClosed();
      if (answer.kind === 'validated') return answer.problems;
      if (answer.kind === 'busy') return [{ path: '$', message: 'could not be checked against the result schema in time (the machine is busy); submit it again' }];
      if (answer.kind === 'cut') {
        return [{ path: '$', message: `could not be checked against the result schema within ${cpuTimeLimitMs} ms of CPU time; submit a smaller result (shorter strings)` }];
      }
      throw new Error(`The sandbox answered a validation with ${answer.kind}.`);
    },
    async close() {
      if (closed) return;
      closed = true;
      if (poll !== undefined) clearInterval(poll);
      poll = undefined;
      for (const pending of queue.splice(0)) pending.resolve({ kind: 'closed' });
      const all = [...threads];
      for (const thread of all) finish(thread, { kind: 'closed' });
      await Promise.all(all.map(async (thread) => {
        thread.state = 'gone';
        threads.delete(thread);
        await thread.worker.terminate().catch(() => {});
      }));
    },
    get threadCount() {
      return threads.size;
    },
  };
}

function poolClosed(): ControlPlaneFailure {
  return new ControlPlaneFailure('sandbox_closed', 'The control plane is closing: its sandbox threads were stopped before this job ran to its end.');
}

/**
 * The sandbox thread's entry file: the package's built `dist/sandbox-worker.js`, found through the package's own
 * exports (so it resolves the same from the library, from a bundle that inlines this file, and from the sources in
 * tests).
 */
function sandboxWorkerFile(): string {
  return createRequire(import.meta.url).resolve('@core/control-plane/sandbox-worker');
}
