import { randomUUID } from 'node:crypto';
import { ControlPlaneNotFoundError, inputSchemas, isUuid, parseInput, type JobRecord, type WorkApi } from '@core/control-plane-client';
import { holdJob, resumeOf } from './approval-api.js';
import { finishApprovedCall, startApprovedCall } from './approved-call-journal.js';
import { jobRecord, type JobRow } from './records.js';
import { claimJob, endedLease, heartbeatJob, releaseJob, settleJob, type JobClaimLimits } from './job-transitions.js';
import { leaseConflict } from './lease-conflict.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';

/** What the work API needs. */
export interface WorkApiOptions {
  driver: SqlDriver;
  schema: string;
  /** How long a claim lasts without a heartbeat, and the most claims of one job (crash recoveries included). */
  claims: JobClaimLimits;
}

/** The worker half of the client: claim, heartbeat, complete, fail, release, hold, and the approved-call journal. */
export function createWorkApi(options: WorkApiOptions): WorkApi {
  const { driver, schema } = options;
  const tables = { schema };

  const read = async (jobId: string, executor: SqlExecutor = driver): Promise<JobRow> => {
    if (!isUuid(jobId)) throw new ControlPlaneNotFoundError('job', jobId);
    const { rows } = await executor.query<JobRow>(`SELECT * FROM ${schema}.job WHERE id = $1`, [jobId]);
    if (rows[0] === undefined) throw new ControlPlaneNotFoundError('job', jobId);
    return rows[0];
  };

  const finish = (jobId: string, leaseToken: string, status: 'succeeded' | 'failed', text: string): Promise<JobRecord> => {
    if (!isUuid(jobId)) throw new ControlPlaneNotFoundError('job', jobId);
    return driver.transaction(async (transaction) => {
      const settled = isUuid(leaseToken) ? await settleJob(transaction, tables, { jobId, leaseToken, status, text }) : undefined;
      if (settled !== undefined) return jobRecord(settled);
      const row = await read(jobId, transaction);
      const lost = leaseConflict({ kind: 'job', id: jobId, title: row.title }, row, leaseToken);
      if (lost !== undefined) throw lost;
      return jobRecord(row);
    });
  };

  return {
    async claim(input) {
      const { workerId } = parseInput(inputSchemas.claim, input, 'work.claim');
      const leaseToken = randomUUID();
      return driver.transaction(async (transaction) => {
        const row = await claimJob(transaction, tables, { workerId, leaseToken, ...options.claims });
        if (row === undefined) return null;
        const resume = await resumeOf(transaction, schema, { kind: 'job', id: row.id });
        return { ...jobRecord(row), leaseToken, ...(resume === undefined ? {} : { resume }) };
      });
    },

    async heartbeat(input) {
      const { jobId, leaseToken } = parseInput(inputSchemas.lease, input, 'work.heartbeat');
      if (isUuid(jobId) && isUuid(leaseToken) && (await heartbeatJob(driver, tables, jobId, leaseToken))) return { keepRunning: true, status: 'running' };
      return endedLease(await read(jobId), leaseToken);
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
      const released = isUuid(jobId) && isUuid(leaseToken) ? await releaseJob(driver, tables, jobId, leaseToken) : undefined;
      if (released !== undefined) return jobRecord(released);
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
