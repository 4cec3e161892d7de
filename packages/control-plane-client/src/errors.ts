import { RuntimeFailure, UsageError } from '@core/runtime';
import type { AnkoleErrorOptions } from '@core/runtime';

/**
 * A request the control plane refuses: invalid input, a bad cron expression, a time in the past,
 * a schedule that fires too often. The message says what was wrong and what to do; `code` is stable.
 */
export class ControlPlaneInputError extends UsageError {
  /** The input field that was wrong, when there is one (`cron`, `runAt`, ...). */
  readonly field: string | undefined;

  constructor(code: string, message: string, options: AnkoleErrorOptions & { field?: string } = {}) {
    super(code, message, options);
    this.field = options.field;
  }
}

/**
 * No schedule, job, workflow, task or Brain page with that id (for a page: or title) belongs to the agent
 * (another agent's is reported the same way).
 */
export class ControlPlaneNotFoundError extends UsageError {
  readonly resource: 'schedule' | 'job' | 'workflow' | 'task' | 'page' | 'approval';
  readonly id: string;

  constructor(resource: 'schedule' | 'job' | 'workflow' | 'task' | 'page' | 'approval', id: string) {
    super(
      `${resource}_not_found`,
      resource === 'page'
        ? `No Brain page with id or title "${id}" exists for this agent. Use recall to find pages and their titles.`
        : `No ${resource} with id "${id}" exists for this agent. List your ${resource}s to see the ids you can use.`,
    );
    this.resource = resource;
    this.id = id;
  }
}

/**
 * A request that came too late or from the wrong party (HTTP 409): a write under a lease that is not the job's or
 * task's current one, or an approved call's output under another lease than the one it started under (`lease_lost`:
 * see lease-conflict.ts); a result after an accepted one (`already_submitted`), or for a task that is no longer running
 * (`task_not_running`: cancelled or failed). Retrying the same call cannot succeed; `code` is stable.
 */
export class ControlPlaneConflictError extends UsageError {
  constructor(code: 'lease_lost' | 'already_submitted' | 'task_not_running', message: string, options: AnkoleErrorOptions = {}) {
    super(code, message, options);
  }
}

/** Whether `error` is the 409 `lease_lost`: the caller's lease is not the job's or task's current one (stop working on it). */
export function isLeaseLost(error: unknown): error is ControlPlaneConflictError {
  return error instanceof ControlPlaneConflictError && error.code === 'lease_lost';
}

/** The database or the queue failed, or the control plane is misconfigured or closed. */
export class ControlPlaneFailure extends RuntimeFailure {
  constructor(code: string, message: string, options: AnkoleErrorOptions = {}) {
    super(code, message, options);
  }
}

/**
 * A call's result did not match its output schema (`RPC_METHODS[method].output`): on the HTTP server it becomes a
 * `500 internal_error` (the details only in the server's log); the HTTP client throws it for an answer it cannot
 * trust, naming the call and the path of the bad field. Code `output_invalid`.
 */
export class ControlPlaneOutputError extends ControlPlaneFailure {
  /** The call, `<api>.<method>`. */
  readonly method: string;
  /** Where in the result the first problem is: `$` for the result itself, `$.tasks[2].createdAt`. */
  readonly path: string;

  constructor(method: string, path: string, message: string, options: AnkoleErrorOptions = {}) {
    super('output_invalid', message, options);
    this.method = method;
    this.path = path;
  }
}
