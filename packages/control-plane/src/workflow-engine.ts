import type { SqlDriver } from './sql-driver.js';
import type { TurnQueue } from './turn-queue.js';
import type { AdvanceApi, TaskWorkApi, WorkflowApi } from './workflow-client.js';
import type { WorkflowLimits } from './workflow-limits.js';
import { ControlPlaneFailure } from './errors.js';

/** What the workflow engine's APIs need. */
export interface WorkflowEngineOptions {
  driver: SqlDriver;
  schema: string;
  /** The turn queue, for the background job that reports a finished workflow to its agent. */
  queue: TurnQueue;
  limits: WorkflowLimits;
}

/** The three client surfaces of the workflow engine. */
export interface WorkflowEngine {
  workflows: WorkflowApi;
  tasks: TaskWorkApi;
  advances: AdvanceApi;
}

/** Creates the workflow engine's client surfaces on one database. */
export function createWorkflowEngine(_options: WorkflowEngineOptions): WorkflowEngine {
  const pending = (): never => {
    throw new ControlPlaneFailure('not_implemented', 'Workflows are being built.');
  };
  return {
    workflows: { start: async () => pending(), get: async () => pending(), list: async () => pending(), cancel: async () => pending() },
    tasks: {
      claim: async () => pending(),
      heartbeat: async () => pending(),
      submit: async () => pending(),
      fail: async () => pending(),
      release: async () => pending(),
    },
    advances: { runNext: async () => pending() },
  };
}
