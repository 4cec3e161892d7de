import { createAdvanceApi } from './advance-api.js';
import { CPU_CUT_MARGIN_MS, createSandboxPool, type SandboxPool } from './sandbox-pool.js';
import type { SqlDriver } from './sql-driver.js';
import { createTaskWorkApi } from './task-work-api.js';
import { createWorkflowApi } from './workflow-api.js';
import {
  checkWorkflowLimits,
  ControlPlaneInputError,
  type AdvanceApi,
  type TaskWorkApi,
  type WorkflowApi,
  type WorkflowLimits,
} from '@core/control-plane-client';

/** What the workflow engine's APIs share. */
export interface WorkflowEngineOptions {
  driver: SqlDriver;
  schema: string;
  limits: WorkflowLimits;
  /** The sandbox threads that run workflow scripts and check task results (started on first use). */
  sandbox: SandboxPool;
}

/** The three client surfaces of the workflow engine, and its sandbox threads. */
export interface WorkflowEngine {
  workflows: WorkflowApi;
  tasks: TaskWorkApi;
  advances: AdvanceApi;
  /** Terminates the sandbox threads (a run in progress ends as cut). */
  close(): Promise<void>;
}

/**
 * Creates the workflow engine's client surfaces on one database, with one pool of sandbox threads (`sandboxThreads`,
 * default 2) between them: scripts run, and task results are checked, only there.
 * @throws ControlPlaneInputError (`options_invalid`) for bad limits or a bad thread count.
 */
export function createWorkflowEngine(options: Pick<WorkflowEngineOptions, 'driver' | 'schema' | 'limits'> & { sandboxThreads?: number }): WorkflowEngine {
  const limits = checkWorkflowLimits({ ...options.limits });
  const threads = options.sandboxThreads ?? 2;
  if (!(Number.isInteger(threads) && threads > 0)) {
    throw new ControlPlaneInputError('options_invalid', `sandboxThreads must be a positive whole number, got ${String(threads)}.`, { field: 'sandboxThreads' });
  }
  // The wall-clock backstop of a run: four times its CPU time, and at least half the advance lease, so a busy machine
  // (another process taking the cores) rarely cuts a run short; a cut run is tried again (maxAdvanceAttempts).
  const wallLimitMs = Math.max(4 * limits.cpuTimeLimitMs + CPU_CUT_MARGIN_MS, (limits.advanceLeaseSeconds * 1000) / 2);
  const sandbox = createSandboxPool({ threads, limits, wallLimitMs });
  const shared: WorkflowEngineOptions = {
    driver: options.driver,
    schema: options.schema,
    limits,
    sandbox,
  };
  return { workflows: createWorkflowApi(shared), tasks: createTaskWorkApi(shared), advances: createAdvanceApi(shared), close: () => sandbox.close() };
}
