/*
 * Every state change of jobs, each written once: one SQL statement (in the caller's transaction when it holds one)
 * per transition. The job rows are the queue: a claim takes the oldest claimable row with FOR UPDATE SKIP LOCKED, as
 * tasks are claimed (bench/queue-claims.mjs measured this against the pg-boss queue jobs used before).
 *
 *   job: queued → running (claimJob) → succeeded | failed (settleJob, by the claim's holder: `settled_by` = its lease)
 *        running → queued (releaseJob, graceful hand-back)
 *        running → awaiting_approval (pauseJob, approval-api.ts) → queued once every held call is decided (resumeJob)
 *        running past its lease → running again for another worker (claimJob, attempts left) or failed once every
 *          attempt was used (expireJobs)
 *        queued | running | awaiting_approval → cancelled (cancelJob), its pending approvals too
 *   (a job keeps the lease token of the claim that settled, released, paused it or ran when it was cancelled: see
 *   lease-conflict.ts; a heartbeat of the lease in `settled_by` answers "finished by this lease": jobHeartbeat)
 */
import type { HeartbeatResult, JobStatus } from '@core/control-plane-client';
import { sameLease } from './lease-conflict.js';
import type { JobRow } from './records.js';
import type { SqlExecutor } from './sql-driver.js';

/** Where the job table lives. */
export interface JobTables {
  schema: string;
}

/** How long a job claim lasts without a heartbeat, and the most claims of one job (crash recoveries included). */
export interface JobClaimLimits {
  leaseSeconds: number;
  maxAttempts: number;
}

/** A new job, queued. */
export interface NewJob {
  id: string;
  agentId: string;
  kind: 'background' | 'scheduled';
  title: string;
  prompt: string;
  allowJobs: boolean;
  /** The folder its turn runs in; `null`/absent: the worker's default home for the agent. */
  home?: string | null;
  /** A scheduled job's schedule and fire time: unique together (a fire time queues one job however often it fires). */
  scheduled?: { scheduleId: string; fireAt: string };
}

/** → queued: inserts the job. `undefined` when a scheduled job for that fire time exists already. */
export async function insertJob(executor: SqlExecutor, { schema }: JobTables, job: NewJob): Promise<JobRow | undefined> {
  const { rows } = await executor.query<JobRow>(
    `INSERT INTO ${schema}.job (id, agent_id, kind, schedule_id, fire_at, title, prompt, home, allow_jobs)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (schedule_id, fire_at) DO NOTHING RETURNING *`,
    [job.id, job.agentId, job.kind, job.scheduled?.scheduleId ?? null, job.scheduled?.fireAt ?? null, job.title, job.prompt, job.home ?? null, job.allowJobs],
  );
  return rows[0];
}

/** How many jobs the agent has queued or running. */
export async function countUnfinishedJobs(executor: SqlExecutor, { schema }: JobTables, agentId: string): Promise<number> {
  const { rows } = await executor.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${schema}.job WHERE agent_id = $1 AND status IN ('queued', 'running')`, [
    agentId,
  ]);
  return Number(rows[0]?.count ?? 0);
}

/**
 * queued (or running past its lease, attempts left) → running for this worker: the oldest such job, skipping rows
 * another transaction holds.
 */
export async function claimJob(
  executor: SqlExecutor,
  { schema }: JobTables,
  claim: { workerId: string; leaseToken: string } & JobClaimLimits,
): Promise<JobRow | undefined> {
  const { rows } = await executor.query<JobRow>(
    `UPDATE ${schema}.job SET status = 'running', attempts = attempts + 1, worker_id = $1, lease_token = $2, heartbeat_at = now(),
       started_at = now(), updated_at = now()
     WHERE id = (
       SELECT id FROM ${schema}.job
       WHERE status = 'queued' OR (status = 'running' AND attempts < $4 AND heartbeat_at < now() - make_interval(secs => $3))
       ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
     ) RETURNING *`,
    [claim.workerId, claim.leaseToken, claim.leaseSeconds, claim.maxAttempts],
  );
  return rows[0];
}

/** running → running, lease extended (only by the claim's holder). Returns whether the claim is still this one's. */
export async function heartbeatJob(executor: SqlExecutor, { schema }: JobTables, jobId: string, leaseToken: string): Promise<boolean> {
  const { rows } = await executor.query<{ id: string }>(
    `UPDATE ${schema}.job SET heartbeat_at = now(), updated_at = now() WHERE id = $1 AND lease_token = $2 AND status = 'running' RETURNING id`,
    [jobId, leaseToken],
  );
  return rows.length === 1;
}

/**
 * What a heartbeat that did not extend the claim answers, from the row as it stands (jobs and tasks alike): finished by
 * this very lease (`settled_by`: its own result was stored, a clean stop), or stopped for another reason (cancelled,
 * taken over, expired).
 */
export function endedLease(row: { status: string; settled_by?: string | null }, leaseToken: string): HeartbeatResult {
  const finished = row.settled_by !== undefined && row.settled_by !== null && sameLease(row.settled_by, leaseToken);
  return { keepRunning: false, status: row.status as JobStatus, ...(finished ? { finishedByThisLease: true } : {}) };
}

/**
 * running → succeeded | failed, by the claim's holder, recording its lease in `settled_by`. `undefined` when the job
 * is not running under that lease (the caller reads the row and explains).
 */
export async function settleJob(
  executor: SqlExecutor,
  { schema }: JobTables,
  settle: { jobId: string; leaseToken: string; status: 'succeeded' | 'failed'; text: string },
): Promise<JobRow | undefined> {
  const { rows } = await executor.query<JobRow>(
    `UPDATE ${schema}.job SET status = $3, ${settle.status === 'succeeded' ? 'final_answer' : 'error'} = $4, settled_by = $2, finished_at = now(), updated_at = now()
     WHERE id = $1 AND lease_token = $2 AND status = 'running' RETURNING *`,
    [settle.jobId, settle.leaseToken, settle.status, settle.text],
  );
  return rows[0];
}

/** running → queued, by the claim's holder (graceful hand-back): claimable again at once. */
export async function releaseJob(executor: SqlExecutor, { schema }: JobTables, jobId: string, leaseToken: string): Promise<JobRow | undefined> {
  const { rows } = await executor.query<JobRow>(
    `UPDATE ${schema}.job SET status = 'queued', worker_id = NULL, heartbeat_at = NULL, updated_at = now()
     WHERE id = $1 AND lease_token = $2 AND status = 'running' RETURNING *`,
    [jobId, leaseToken],
  );
  return rows[0];
}

/** running → awaiting_approval, by the claim's holder, with its run state (not claimable until resumed). */
export async function pauseJob(executor: SqlExecutor, { schema }: JobTables, jobId: string, leaseToken: string, runState: unknown): Promise<JobRow | undefined> {
  const { rows } = await executor.query<JobRow>(
    `UPDATE ${schema}.job SET status = 'awaiting_approval', run_state = $3::jsonb, worker_id = NULL, heartbeat_at = NULL, updated_at = now()
     WHERE id = $1 AND lease_token = $2 AND status = 'running' RETURNING *`,
    [jobId, leaseToken, JSON.stringify(runState)],
  );
  return rows[0];
}

/** awaiting_approval → queued, once every held call is decided: claimable again. Returns whether it moved. */
export async function resumeJob(executor: SqlExecutor, { schema }: JobTables, jobId: string): Promise<boolean> {
  const { rows } = await executor.query(`UPDATE ${schema}.job SET status = 'queued', updated_at = now() WHERE id = $1 AND status = 'awaiting_approval' RETURNING id`, [
    jobId,
  ]);
  return rows.length === 1;
}

/**
 * queued | running | awaiting_approval → cancelled, by its agent: its pending approvals can no longer be decided (a
 * running turn stops at its worker's next heartbeat). `undefined` when already over.
 */
export async function cancelJob(executor: SqlExecutor, { schema }: JobTables, jobId: string, agentId: string): Promise<JobRow | undefined> {
  const { rows } = await executor.query<JobRow>(
    `UPDATE ${schema}.job SET status = 'cancelled', finished_at = now(), updated_at = now()
     WHERE id = $1 AND agent_id = $2 AND status IN ('queued', 'running', 'awaiting_approval') RETURNING *`,
    [jobId, agentId],
  );
  if (rows[0] === undefined) return undefined;
  await executor.query(`UPDATE ${schema}.approval SET status = 'cancelled', decided_at = now() WHERE job_id = $1 AND status = 'pending'`, [jobId]);
  return rows[0];
}

/**
 * running past its lease, every attempt used → failed, the lease cleared (a late write by that worker is refused as
 * `lease_lost`). Returns how many it failed.
 */
export async function expireJobs(executor: SqlExecutor, { schema }: JobTables, limits: JobClaimLimits): Promise<number> {
  const result = await executor.query(
    `UPDATE ${schema}.job SET status = 'failed', lease_token = NULL, finished_at = now(), updated_at = now(),
       error = 'The worker running this job stopped responding and every attempt (' || attempts || ') was used.'
     WHERE id IN (
       SELECT id FROM ${schema}.job WHERE status = 'running' AND attempts >= $2 AND heartbeat_at < now() - make_interval(secs => $1)
       LIMIT 100 FOR UPDATE SKIP LOCKED
     )`,
    [limits.leaseSeconds, limits.maxAttempts],
  );
  return result.rowCount;
}

/** Whether a job's claim ran out with attempts left (claimable again without a change to its row). */
export async function hasExpiredJobClaims(executor: SqlExecutor, { schema }: JobTables, limits: JobClaimLimits): Promise<boolean> {
  const { rows } = await executor.query<{ expired: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM ${schema}.job WHERE status = 'running' AND attempts < $2 AND heartbeat_at < now() - make_interval(secs => $1)) AS expired`,
    [limits.leaseSeconds, limits.maxAttempts],
  );
  return rows[0]?.expired === true;
}
