import { randomUUID } from 'node:crypto';
import { ControlPlaneNotFoundError, inputSchemas, isUuid, parseInput, type JobRecord, type WorkApi } from '@core/control-plane-client';
import { holdJob, resumeOf } from './approval-api.js';
import { finishApprovedCall, startApprovedCall } from './approved-call-journal.js';
import { jobRecord, type JobRow } from './records.js';
import { leaseConflict } from './lease-conflict.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';
import type { TurnQueue } from './turn-queue.js';

/** What the work API needs. */
export interface WorkApiOptions {
  driver: SqlDriver;
  schema: string;
  queue: TurnQueue;
}

/** The worker half of the client: claim, heartbeat, complete, fail, release, hold, and the approved-call journal. */
export function createWorkApi(options: WorkApiOptions): WorkApi {
  const { driver, schema, queue } = options;

  const read = async (jobId: string, executor: SqlExecutor = driver): Promise<JobRow> => {
    if (!isUuid(jobId)) throw new ControlPlaneNotFoundError('job', jobId);
    const { rows } = await executor.query<JobRow>(`SELECT * FROM ${schema}.job WHERE id = $1`, [jobId]);
    if (rows[0] === undefined) throw new ControlPlaneNotFoundError('job', jobId);
    return rows[0];
  };

  const finish = (jobId: string, leaseToken: string, status: 'succeeded' | 'failed', text: string): Promise<JobRecord> => {
    if (!isUuid(jobId)) throw new ControlPlaneNotFoundError('job', jobId);
    return driver.transaction(async (transaction) => {
      if (isUuid(leaseToken)) {
        const { rows } = await transaction.query<JobRow>(
          `UPDATE ${schema}.job SET status = $3, ${status === 'succeeded' ? 'final_answer' : 'error'} = $4, finished_at = now(), updated_at = now()
           WHERE id = $1 AND lease_token = $2 AND status = 'running' RETURNING *`,
          [jobId, leaseToken, status, text],
        );
        if (rows[0] !== undefined) {
          await queue.complete(jobId, { status }, transaction);
          return jobRecord(rows[0]);
        }
      }
      const row = await read(jobId, transaction);
      const lost = leaseConflict({ kind: 'job', id: jobId, title: row.title }, row, leaseToken);
      if (lost !== undefined) throw lost;
      // Cancelled while it ran: settle the queue entry this worker's claim still holds.
      if (row.status === 'cancelled') await queue.complete(jobId, { status: row.status }, transaction);
      return jobRecord(row);
    });
  };

  return {
    async claim(input) {
      const { workerId } = parseInput(inputSchemas.claim, input, 'work.claim');
      // Claim = pg-boss fetch (SKIP LOCKED) + the row update, in one transaction.
      for (let skipped = 0; skipped < 20; skipped += 1) {
        const claimed = await driver.transaction(async (transaction) => {
          const jobId = await queue.fetch(transaction);
          if (jobId === undefined) return null;
          const leaseToken = randomUUID();
          const { rows } = await transaction.query<JobRow>(
            `UPDATE ${schema}.job SET status = 'running', attempts = attempts + 1, worker_id = $2, lease_token = $3,
               heartbeat_at = now(), started_at = now(), updated_at = now()
             WHERE id = $1 AND status IN ('queued', 'running') RETURNING *`,
            [jobId, workerId, leaseToken],
          );
          if (rows[0] !== undefined) {
            const resume = await resumeOf(transaction, schema, { kind: 'job', id: jobId });
            return { ...jobRecord(rows[0]), leaseToken, ...(resume === undefined ? {} : { resume }) };
          }
          // Cancelled (or finished) while it waited in the queue: settle the entry and take the next.
          await queue.complete(jobId, { skipped: true }, transaction);
          return 'skipped' as const;
        });
        if (claimed !== 'skipped') return claimed;
      }
      return null;
    },

    async heartbeat(input) {
      const { jobId, leaseToken } = parseInput(inputSchemas.lease, input, 'work.heartbeat');
      if (isUuid(jobId) && isUuid(leaseToken)) {
        const { rows } = await driver.query<{ id: string }>(
          `UPDATE ${schema}.job SET heartbeat_at = now(), updated_at = now()
           WHERE id = $1 AND lease_token = $2 AND status = 'running' RETURNING id`,
          [jobId, leaseToken],
        );
        if (rows.length === 1) {
          await queue.extendLease(jobId);
          return { keepRunning: true, status: 'running' };
        }
      }
      const row = await read(jobId);
      return { keepRunning: false, status: row.status };
    },

    async complete(input) {
      const { jobId, leaseToken, finalAnswer } = parseInput(inputSchemas.complete, input, 'work.complete');
      return finish(jobId, leaseToken, 'succeeded', finalAnswer);
    },

    async fail(input) {
      const { jobId, leaseToken, error } = parseInput(inputSchemas.fail, input, 'work.fail');
      return finish(jobId, leaseToken, 'failed', error);
    },

    async release(input) {
      const { jobId, leaseToken } = parseInput(inputSchemas.lease, input, 'work.release');
      if (isUuid(jobId) && isUuid(leaseToken)) {
        const { rows } = await driver.query<JobRow>(
          `UPDATE ${schema}.job SET status = 'queued', worker_id = NULL, heartbeat_at = NULL, updated_at = now()
           WHERE id = $1 AND lease_token = $2 AND status = 'running' RETURNING *`,
          [jobId, leaseToken],
        );
        if (rows[0] !== undefined) {
          await queue.requeue(jobId);
          return jobRecord(rows[0]);
        }
      }
      const row = await read(jobId);
      const lost = leaseConflict({ kind: 'job', id: jobId, title: row.title }, row, leaseToken);
      if (lost !== undefined) throw lost;
      return jobRecord(row);
    },

    hold: (input) => holdJob(options, input),

    async startApprovedCall(input) {
      const { jobId, leaseToken, callId } = parseInput(inputSchemas.approvedCall, input, 'work.startApprovedCall');
      return startApprovedCall(driver, schema, { owner: { kind: 'job', id: jobId }, leaseToken, callId });
    },

    async finishApprovedCall(input) {
      const { jobId, leaseToken, callId, output } = parseInput(inputSchemas.approvedCallOutput, input, 'work.finishApprovedCall');
      return finishApprovedCall(driver, schema, { owner: { kind: 'job', id: jobId }, leaseToken, callId, output });
    },
  };
}
