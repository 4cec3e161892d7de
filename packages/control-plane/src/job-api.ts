import { randomUUID } from 'node:crypto';
import { ControlPlaneInputError, ControlPlaneNotFoundError, inputSchemas, isUuid, parseInput, type JobApi, type JobRecord } from '@core/control-plane-client';
import { cancelJob, countUnfinishedJobs, insertJob } from './job-transitions.js';
import { jobRecord, type JobRow } from './records.js';
import type { SqlDriver } from './sql-driver.js';

/** What the job API needs. */
export interface JobApiOptions {
  driver: SqlDriver;
  schema: string;
  maxUnfinishedPerAgent: number;
}

/** The background-jobs half of the client: rows in the control plane's tables (the rows are the queue). */
export function createJobApi(options: JobApiOptions): JobApi {
  const { driver, schema } = options;
  const tables = { schema };

  const get = async (input: { agentId: string; jobId: string }): Promise<JobRecord> => {
    const { agentId, jobId } = parseInput(inputSchemas.jobRef, input, 'jobs.get');
    if (!isUuid(jobId)) throw new ControlPlaneNotFoundError('job', jobId);
    const { rows } = await driver.query<JobRow>(`SELECT * FROM ${schema}.job WHERE id = $1 AND agent_id = $2`, [jobId, agentId]);
    if (rows[0] === undefined) throw new ControlPlaneNotFoundError('job', jobId);
    return jobRecord(rows[0]);
  };

  return {
    async start(input) {
      const parsed = parseInput(inputSchemas.startJob, input, 'jobs.start');
      const id = randomUUID();
      const row = await driver.transaction(async (transaction) => {
        if ((await countUnfinishedJobs(transaction, tables, parsed.agentId)) >= options.maxUnfinishedPerAgent) {
          throw new ControlPlaneInputError(
            'job_limit_reached',
            `This agent already has ${options.maxUnfinishedPerAgent} queued or running jobs, the most allowed. Wait for some to finish or cancel one.`,
          );
        }
        const title = parsed.title ?? parsed.prompt.slice(0, 60);
        return (await insertJob(transaction, tables, { id, agentId: parsed.agentId, kind: 'background', title, prompt: parsed.prompt, allowJobs: false, home: parsed.home ?? null }))!;
      });
      return jobRecord(row);
    },

    get,

    async list(input) {
      const { agentId, status, limit } = parseInput(inputSchemas.listJobs, input, 'jobs.list');
      const { rows } = await driver.query<JobRow>(
        `SELECT * FROM ${schema}.job WHERE agent_id = $1 ${status === undefined ? '' : 'AND status = ANY($3::text[])'}
         ORDER BY created_at DESC, id LIMIT $2`,
        status === undefined ? [agentId, limit ?? 50] : [agentId, limit ?? 50, status],
      );
      return rows.map(jobRecord);
    },

    async cancel(input) {
      const { agentId, jobId } = parseInput(inputSchemas.jobRef, input, 'jobs.cancel');
      if (!isUuid(jobId)) throw new ControlPlaneNotFoundError('job', jobId);
      const cancelled = await driver.transaction((transaction) => cancelJob(transaction, tables, jobId, agentId));
      if (cancelled === undefined) return get({ agentId, jobId });
      return jobRecord(cancelled);
    },
  };
}
