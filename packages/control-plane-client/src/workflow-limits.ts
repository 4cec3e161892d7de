import { ControlPlaneInputError } from './errors.js';

/** The workflow engine's limits; every one hit is a clear error (a refused start, a failed workflow or task). */
export interface WorkflowLimits {
  /** Most running workflows per agent (default 10). */
  maxRunningPerAgent: number;
  /** Largest script, in UTF-8 bytes (default 100 000). */
  maxScriptBytes: number;
  /** Largest input and largest result, as JSON, in UTF-8 bytes (default 1 000 000). */
  maxJsonBytes: number;
  /** Most `task()` calls per workflow (default 1000). */
  maxTasksPerWorkflow: number;
  /** Most log lines per workflow (default 1000). */
  maxLogLines: number;
  /** Most log bytes per workflow, UTF-8 (default 65 536). */
  maxLogBytes: number;
  /** The sandbox's memory limit per run, in bytes (default 32 MiB). */
  memoryLimitBytes: number;
  /** The sandbox's stack limit per run, in bytes (default 256 KiB). */
  stackLimitBytes: number;
  /** CPU time one run of the script may take, in ms (default 1000). */
  cpuTimeLimitMs: number;
  /** A task claim expires this long after its last heartbeat; then another worker runs the task (default 10). */
  taskLeaseSeconds: number;
  /** Most claims of one task whose worker stopped responding, before the task fails (default 3). */
  maxTaskAttempts: number;
  /** An advance claim expires after this long; then another worker runs the advance (default 10; more than `cpuTimeLimitMs`). */
  advanceLeaseSeconds: number;
  /** Most abandoned advances of one workflow before it fails (default 3). */
  maxAdvanceAttempts: number;
}

/** The defaults of `WorkflowLimits`. */
export const DEFAULT_WORKFLOW_LIMITS: Readonly<WorkflowLimits> = Object.freeze({
  maxRunningPerAgent: 10,
  maxScriptBytes: 100_000,
  maxJsonBytes: 1_000_000,
  maxTasksPerWorkflow: 1000,
  maxLogLines: 1000,
  maxLogBytes: 65_536,
  memoryLimitBytes: 32 * 1024 * 1024,
  stackLimitBytes: 256 * 1024,
  cpuTimeLimitMs: 1000,
  taskLeaseSeconds: 10,
  maxTaskAttempts: 3,
  advanceLeaseSeconds: 10,
  maxAdvanceAttempts: 3,
});

/**
 * Checks limits: every one a positive number, and the advance lease longer than one run may take (else a second
 * worker would take over an advance that is still running).
 * @throws ControlPlaneInputError (`options_invalid`) naming the limit.
 */
export function checkWorkflowLimits(limits: WorkflowLimits): WorkflowLimits {
  for (const [name, value] of Object.entries(limits)) {
    if (!(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
      throw new ControlPlaneInputError('options_invalid', `workflowLimits.${name} must be a positive number, got ${String(value)}.`, { field: `workflowLimits.${name}` });
    }
  }
  if (limits.advanceLeaseSeconds * 1000 < limits.cpuTimeLimitMs + 1000) {
    throw new ControlPlaneInputError(
      'options_invalid',
      `workflowLimits.advanceLeaseSeconds (${limits.advanceLeaseSeconds} s) must exceed cpuTimeLimitMs (${limits.cpuTimeLimitMs} ms) by at least a second, or a second worker would take over an advance still running.`,
      { field: 'workflowLimits.advanceLeaseSeconds' },
    );
  }
  return limits;
}
