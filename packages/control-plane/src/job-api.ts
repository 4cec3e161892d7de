import { randomUUID } from 'node:crypto';
import type { JobApi, JobRecord } from './control-plane-client.js';
import { ControlPlaneInputError, ControlPlaneNotFoundError } from './errors.js';
import { inputSchemas, isUuid, parseInput } from './input-schemas.js';
import { jobRecord, type JobRow } from './records.js';
import type { SqlDriver } from './sql-driver.js';
import type { TurnQueue } from './turn-queue.js';

/** What the job API needs. */
export interface JobApiOptions {
  driver: SqlDriver;
  schema: string;
  queue: TurnQueue;
  maxUnfinishedPerAgent: number;
}

/** The background-jobs half of the client: rows in the control plane's tables, entries in the turn queue. */
export function createJobApi(options: JobApiOptions): JobApi {
  const { driver, schema, queue } = options;

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
        const { rows: counted } = await transaction.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM ${schema}.job WHERE agent_id = $1 AND status IN ('queued', 'running')`,
          [parsed.agentId],
        );
        if (Number(counted[0]?.count ?? 0) >= options.maxUnfinishedPerAgent) {
          throw new ControlPlaneInputError(
            'job_limit_reached',
            `This agent already has ${options.maxUnfinishedPerAgent} queued or running jobs, the most allowed. Wait for some to finish or cancel one.`,
          );
        }
        const { rows } = await transaction.query<JobRow>(
          `INSERT INTO ${schema}.job (id, agent_id, kind, title, prompt, home, allow_jobs) VALUES ($1, $2, 'background', $3, $4, $5, false) RETURNING *`,
          [id, parsed.agentId, parsed.title ?? parsed.prompt.slice(0, 60), parsed.prompt, parsed.home ?? null],
        );
        await queue.enqueue(transaction, id);
        return rows[0]!;
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
      const cancelled = await driver.transaction(async (transaction) => {
        const { rows } = await transaction.query<JobRow>(
          `UPDATE ${schema}.job SET status = 'cancelled', finished_at = now(), updated_at = now()
           WHERE id = $1 AND agent_id = $2 AND status IN ('queued', 'running', 'awaiting_approval') RETURNING *`,
          [jobId, agentId],
        );
        // Its held calls can no longer be decided.
        if (rows[0] !== undefined) {
          await transaction.query(`UPDATE ${schema}.approval SET status = 'cancelled', decided_at = now() WHERE job_id = $1 AND status = 'pending'`, [jobId]);
        }
        // A queued entry leaves the queue; a running one is stopped by its worker's next heartbeat.
        if (rows[0] !== undefined) await queue.cancel(jobId, transaction);
        return rows[0];
      });
      if (cancelled === undefined) return get({ agentId, jobId });
      return jobRecord(cancelled);
    },
  };
}
