import { createAdvanceApi } from './advance-api.js';
import { createClosedSchemaChecker, type ClosedSchemaChecker } from './closed-result-schema.js';
import { createResultValidator, type ResultSchemaValidator } from './result-validator.js';
import { createSandboxModule, type SandboxModule } from './sandbox-module.js';
import type { SqlDriver } from './sql-driver.js';
import { createTaskWorkApi } from './task-work-api.js';
import type { TurnQueue } from './turn-queue.js';
import { createWorkflowApi } from './workflow-api.js';
import type { AdvanceApi, TaskWorkApi, WorkflowApi } from './workflow-client.js';
import { checkWorkflowLimits, type WorkflowLimits } from './workflow-limits.js';

/** What the workflow engine's APIs share. */
export interface WorkflowEngineOptions {
  driver: SqlDriver;
  schema: string;
  /** The turn queue, for the background job that reports a finished workflow to its agent. */
  queue: TurnQueue;
  limits: WorkflowLimits;
  /** The QuickJS module (loaded once per control plane, on first use). */
  sandbox: SandboxModule;
  /** Ajv, for result schemas and submitted results. */
  validator: ResultSchemaValidator;
  /** Checks (and remembers) `task()` result schemas. */
  schemas: ClosedSchemaChecker;
}

/** The three client surfaces of the workflow engine. */
export interface WorkflowEngine {
  workflows: WorkflowApi;
  tasks: TaskWorkApi;
  advances: AdvanceApi;
}

/**
 * Creates the workflow engine's client surfaces on one database, with one QuickJS module and one Ajv between them.
 * @throws ControlPlaneInputError (`options_invalid`) for bad limits.
 */
export function createWorkflowEngine(options: Pick<WorkflowEngineOptions, 'driver' | 'schema' | 'queue' | 'limits'>): WorkflowEngine {
  const validator = createResultValidator();
  const shared: WorkflowEngineOptions = {
    ...options,
    limits: checkWorkflowLimits({ ...options.limits }),
    sandbox: createSandboxModule(),
    validator,
    schemas: createClosedSchemaChecker(validator),
  };
  return { workflows: createWorkflowApi(shared), tasks: createTaskWorkApi(shared), advances: createAdvanceApi(shared) };
}
