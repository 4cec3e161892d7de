import type { JsonObject, ResultSchemaProblem } from '@core/control-plane-client';
import type { JournaledTask, ScriptRun, ScriptRunInput } from './workflow-sandbox.js';

/** What a sandbox thread is started with (its `workerData`). */
export interface SandboxThreadData {
  /** QuickJS's own memory limit per run; the thread's WebAssembly memory is capped at 16 MiB more than this. */
  memoryLimitBytes: number;
  /** Retire the thread once its WebAssembly memory grew this much beyond its start (memory is never given back). */
  retireAfterGrowthBytes: number;
  /** Retire the thread after this many jobs. */
  retireAfterJobs: number;
}

/** A job for a sandbox thread: run a workflow script, check that one compiles, or check a task result against its schema. */
export type SandboxJob =
  | { id: number; kind: 'run'; input: Omit<ScriptRunInput, 'schemas' | 'journal'> & { journal: readonly JournaledTask[] } }
  | { id: number; kind: 'check'; script: string; limits: ScriptRunInput['limits'] }
  | { id: number; kind: 'validate'; schema: JsonObject; value: unknown };

/** What a sandbox thread posts: once when it is ready (with its OS thread id, when known), then one answer per job. */
export type SandboxThreadMessage =
  | { kind: 'ready'; threadId: number | undefined }
  | { kind: 'ran'; id: number; run: ScriptRun; retire: boolean }
  | { kind: 'checked'; id: number; problem: string | undefined; retire: boolean }
  | { kind: 'validated'; id: number; problems: ResultSchemaProblem[]; retire: boolean };
