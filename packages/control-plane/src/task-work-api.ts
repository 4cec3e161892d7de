import { randomUUID } from 'node:crypto';
import { holdTask, resumeOf } from './approval-api.js';
import { finishApprovedCall, startApprovedCall } from './approved-call-journal.js';
import {
  ControlPlaneConflictError,
  ControlPlaneNotFoundError,
  isUuid,
  parseInput,
  workflowInputSchemas as schemas,
  type JsonObject,
  type TaskRecord,
  type TaskWorkApi,
} from '@core/control-plane-client';
import { endedLease } from './job-transitions.js';
import { leaseConflict, leaseLost, sameLease } from './lease-conflict.js';
import type { SqlExecutor } from './sql-driver.js';
import type { WorkflowEngineOptions } from './workflow-engine.js';
import { taskRecord, type TaskRow } from './workflow-records.js';
import { claimTask, expireTask, findAbandonedTasks, heartbeatTask, releaseTask, settleTask } from './workflow-transitions.js';

/** The worker half of tasks: claim, heartbeat, submit, fail, release, hold, and the approved-call journal. */
export function createTaskWorkApi(options: WorkflowEngineOptions): TaskWorkApi {
  const { driver, schema, limits, sandbox } = options;
  const tables = { schema };

  const read = async (executor: SqlExecutor, taskId: string): Promise<TaskRow> => {
    if (!isUuid(taskId)) throw new ControlPlaneNotFoundError('task', taskId);
    const { rows } = await executor.query<TaskRow>(`SELECT * FROM ${schema}.task WHERE id = $1`, [taskId]);
    if (rows[0] === undefined) throw new ControlPlaneNotFoundError('task', taskId);
    return rows[0];
  };

  /** Fails the tasks whose workers stopped responding too often (each in its own transaction). */
  const expireAbandoned = async (): Promise<void> => {
    for (const taskId of await findAbandonedTasks(driver, tables, limits.taskLeaseSeconds, limits.maxTaskAttempts)) {
      await driver
        .transaction(async (transaction) => {
          if ((await expireTask(transaction, tables, taskId, limits.taskLeaseSeconds, limits.maxTaskAttempts)) === undefined) throw new Skipped();
        })
        .catch((error: unknown) => {
          if (!(error instanceof Skipped)) throw error;
        });
    }
  };

  /** Settles the task under the lease, or throws the conflict that explains why it cannot. */
  const settle = (taskId: string, leaseToken: string, status: 'succeeded' | 'failed', result: JsonObject | null, error: string | null): Promise<TaskRow> =>
    driver.transaction(async (transaction) => {
      const row = isUuid(leaseToken) ? await settleTask(transaction, tables, { taskId, leaseToken, status, result, error }) : undefined;
      if (row !== undefined) return row;
      throw conflict(taskId, await read(transaction, taskId), leaseToken);
    });

  return {
    async claim(input) {
      const { workerId } = parseInput(schemas.claimTask, input, 'tasks.claim');
      await expireAbandoned();
      const leaseToken = randomUUID();
      const claimed = await driver.transaction(async (transaction) => {
        const row = await claimTask(transaction, tables, { workerId, leaseToken, leaseSeconds: limits.taskLeaseSeconds, maxAttempts: limits.maxTaskAttempts });
        // A task resumed after approval: its stored run state and the decisions (read after the claim's row lock).
        return row === undefined ? undefined : { row, resume: await resumeOf(transaction, schema, { kind: 'task', id: row.id }) };
      });
      if (claimed === undefined) return null;
      const { row, resume } = claimed;
      return { ...taskRecord(row), leaseToken, workflowTitle: row.workflow_title, ...(resume === undefined ? {} : { resume }) };
    },

    async heartbeat(input) {
      const { taskId, leaseToken } = parseInput(schemas.taskLease, input, 'tasks.heartbeat');
      if (isUuid(taskId) && isUuid(leaseToken) && (await heartbeatTask(driver, tables, taskId, leaseToken))) return { keepRunning: true, status: 'running' };
      return endedLease(await read(driver, taskId), leaseToken);
    },

    async submit(input) {
      const { taskId, leaseToken, result } = parseInput(schemas.submitTask, input, 'tasks.submit');
      const row = await read(driver, taskId);
      if (row.status !== 'running' || !sameLease(row.lease_token, leaseToken)) throw conflict(taskId, row, leaseToken);
      let text: string | undefined;
      try {
        text = JSON.stringify(result);
      } catch {
        text = undefined;
      }
      if (text === undefined) return { accepted: false, errors: [{ path: '$', message: 'must be plain JSON data' }] };
      if (Buffer.byteLength(text) > limits.maxJsonBytes) {
        return { accepted: false, errors: [{ path: '$', message: `is ${Buffer.byteLength(text)} bytes of JSON; at most ${limits.maxJsonBytes} are allowed` }] };
      }
      const value = JSON.parse(text) as unknown;
      // Checked in a sandbox thread, under its CPU-time cut: no result and no schema can hold up this thread.
      const errors = await sandbox.validate(row.result_schema, value);
      if (errors.length > 0) return { accepted: false, errors };
      return { accepted: true, task: taskRecord(await settle(taskId, leaseToken, 'succeeded', value as JsonObject, null)) };
    },

    async fail(input) {
      const { taskId, leaseToken, error } = parseInput(schemas.failTask, input, 'tasks.fail');
      try {
        return taskRecord(await settle(taskId, leaseToken, 'failed', null, error));
      } catch (problem) {
        if (problem instanceof ControlPlaneConflictError && problem.code !== 'lease_lost') return taskRecord(await read(driver, taskId));
        throw problem;
      }
    },

    async release(input): Promise<TaskRecord> {
      const { taskId, leaseToken } = parseInput(schemas.taskLease, input, 'tasks.release');
      const released = isUuid(taskId) && isUuid(leaseToken) ? await releaseTask(driver, tables, taskId, leaseToken) : undefined;
      if (released !== undefined) return taskRecord(released);
      const row = await read(driver, taskId);
      const lost = leaseConflict({ kind: 'task', id: taskId, title: row.title }, row, leaseToken);
      if (lost !== undefined) throw lost;
      return taskRecord(row);
    },

    hold: (input) => holdTask(options, input),

    async startApprovedCall(input) {
      const { taskId, leaseToken, callId } = parseInput(schemas.approvedTaskCall, input, 'tasks.startApprovedCall');
      return startApprovedCall(driver, schema, { owner: { kind: 'task', id: taskId }, leaseToken, callId });
    },

    async finishApprovedCall(input) {
      const { taskId, leaseToken, callId, output } = parseInput(schemas.approvedTaskCallOutput, input, 'tasks.finishApprovedCall');
      return finishApprovedCall(driver, schema, { owner: { kind: 'task', id: taskId }, leaseToken, callId, output });
    },
  };
}

class Skipped extends Error {}

/** Why a task cannot be settled under this lease: another lease first, then the task's state. */
function conflict(taskId: string, row: TaskRow, leaseToken: string): ControlPlaneConflictError {
  const lost = leaseConflict({ kind: 'task', id: taskId, title: row.title }, row, leaseToken);
  if (lost !== undefined) return lost;
  if (row.status === 'succeeded') {
    return new ControlPlaneConflictError('already_submitted', `Task "${row.title}" already has an accepted result; it cannot be submitted again.`);
  }
  if (row.status === 'failed' || row.status === 'cancelled') {
    return new ControlPlaneConflictError(
      'task_not_running',
      `Task "${row.title}" was ${row.status === 'cancelled' ? 'cancelled' : 'failed'}; nothing more can be submitted for it. Stop working on it.`,
    );
  }
  // Released or paused by this worker: it holds the task no longer.
  return leaseLost({ kind: 'task', id: taskId, title: row.title });
}
