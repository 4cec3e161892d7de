/*
 * Every state change of jobs, each written once: one SQL statement (in the caller's transaction when it holds one)
 * per transition, with the job's entry in the turn queue (pg-boss) moved in the same place.
 *
 *   job: queued → running (claimJob) → succeeded | failed (settleJob, by the claim's holder: `settled_by` = its lease)
 *        running → queued (releaseJob, graceful hand-back)
 *        running → awaiting_approval (pauseJob, approval-api.ts) → queued once every held call is decided (resumeJob)
 *        running past its lease → running again for another worker (the queue's retry, claimJob) or failed once every
 *          attempt was used (expireJobs)
 *        queued | running | awaiting_approval → cancelled (cancelJob), its pending approvals too
 *   (a job keeps the lease token of the claim that settled, released, paused it or ran when it was cancelled: see
 *   lease-conflict.ts; a heartbeat of the lease in `settled_by` answers "finished by this lease": jobHeartbeat)
 */
import type { HeartbeatResult, JobStatus } from './control-plane-client.js';
import { sameLease } from './lease-conflict.js';
import type { JobRow } from './records.js';
import type { SqlExecutor } from './sql-driver.js';
import type { TurnQueue } from './turn-queue.js';

/** Where the job table lives and the queue its entries go through. */
export interface JobTables {
  schema: string;
  queue: TurnQueue;
}

/** A new job, queued. */
export interface NewJob {
  id: string;
  agentId: string;
  kind: 'background' | 'scheduled';
  title: string;
  prompt: string;
  allowJobs: boolean;
  /** A scheduled job's schedule and fire time: unique together (a fire time queues one job however often it fires). */
  scheduled?: { scheduleId: string; fireAt: string };
}

/** → queued: inserts the job and queues its entry. `undefined` when a scheduled job for that fire time exists already. */
export async function insertJob(executor: SqlExecutor, { schema, queue }: JobTables, job: NewJob): Promise<JobRow | undefined> {
  const { rows } = await executor.query<JobRow>(
    `INSERT INTO ${schema}.job (id, agent_id, kind, schedule_id, fire_at, title, prompt, allow_jobs)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (schedule_id, fire_at) DO NOTHING RETURNING *`,
    [job.id, job.agentId, job.kind, job.scheduled?.scheduleId ?? null, job.scheduled?.fireAt ?? null, job.title, job.prompt, job.allowJobs],
  );
  if (rows[0] !== undefined) await queue.enqueue(executor, job.id);
  return rows[0];
}

/** How many jobs the agent has queued or running. */
export async function countUnfinishedJobs(executor: SqlExecutor, { schema }: Pick<JobTables, 'schema'>, agentId: string): Promise<number> {
  const { rows } = await executor.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${schema}.job WHERE agent_id = $1 AND status IN ('queued', 'running')`, [
    agentId,
  ]);
  return Number(rows[0]?.count ?? 0);
}

/**
 * queued (or running past its lease) → running for this worker: takes the next queue entry (SKIP LOCKED) and updates
 * its row, in the caller's transaction. `skipped` when the entry's job was cancelled or finished while it waited (its
 * entry is settled: take the next); `undefined` when the queue is empty.
 */
export async function claimJob(
  executor: SqlExecutor,
  { schema, queue }: JobTables,
  claim: { workerId: string; leaseToken: string },
): Promise<JobRow | 'skipped' | undefined> {
  const jobId = await queue.fetch(executor);
  if (jobId === undefined) return undefined;
  const { rows } = await executor.query<JobRow>(
    `UPDATE ${schema}.job SET status = 'running', attempts = attempts + 1, worker_id = $2, lease_token = $3,
       heartbeat_at = now(), started_at = now(), updated_at = now()
     WHERE id = $1 AND status IN ('queued', 'running') RETURNING *`,
    [jobId, claim.workerId, claim.leaseToken],
  );
  if (rows[0] !== undefined) return rows[0];
  await queue.complete(jobId, { skipped: true }, executor);
  return 'skipped';
}

/** running → running, lease extended (only by the claim's holder). Returns whether the claim is still this one's. */
export async function heartbeatJob(executor: SqlExecutor, { schema, queue }: JobTables, jobId: string, leaseToken: string): Promise<boolean> {
  const { rows } = await executor.query<{ id: string }>(
    `UPDATE ${schema}.job SET heartbeat_at = now(), updated_at = now() WHERE id = $1 AND lease_token = $2 AND status = 'running' RETURNING id`,
    [jobId, leaseToken],
  );
  if (rows.length !== 1) return false;
  await queue.extendLease(jobId);
  return true;
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
 * running → succeeded | failed, by the claim's holder, recording its lease in `settled_by`; its queue entry is done.
 * `undefined` when the job is not running under that lease (the caller reads the row and explains).
 */
export async function settleJob(
  executor: SqlExecutor,
  { schema, queue }: JobTables,
  settle: { jobId: string; leaseToken: string; status: 'succeeded' | 'failed'; text: string },
): Promise<JobRow | undefined> {
  const { rows } = await executor.query<JobRow>(
    `UPDATE ${schema}.job SET status = $3, ${settle.status === 'succeeded' ? 'final_answer' : 'error'} = $4, settled_by = $2, finished_at = now(), updated_at = now()
     WHERE id = $1 AND lease_token = $2 AND status = 'running' RETURNING *`,
    [settle.jobId, settle.leaseToken, settle.status, settle.text],
  );
  if (rows[0] !== undefined) await queue.complete(settle.jobId, { status: settle.status }, executor);
  return rows[0];
}

/** A job cancelled while it ran: its worker's last word settles the queue entry its claim still holds. */
export async function closeCancelledJob(executor: SqlExecutor, { queue }: JobTables, jobId: string): Promise<void> {
  await queue.complete(jobId, { status: 'cancelled' }, executor);
}

/** running → queued, by the claim's holder (graceful hand-back): its entry goes back into the queue. */
export async function releaseJob(executor: SqlExecutor, { schema, queue }: JobTables, jobId: string, leaseToken: string): Promise<JobRow | undefined> {
  const { rows } = await executor.query<JobRow>(
    `UPDATE ${schema}.job SET status = 'queued', worker_id = NULL, heartbeat_at = NULL, updated_at = now()
     WHERE id = $1 AND lease_token = $2 AND status = 'running' RETURNING *`,
    [jobId, leaseToken],
  );
  if (rows[0] !== undefined) await queue.requeue(jobId);
  return rows[0];
}

/** running → awaiting_approval, by the claim's holder, with its run state; the entry leaves the queue until resumed. */
export async function pauseJob(executor: SqlExecutor, { schema, queue }: JobTables, jobId: string, leaseToken: string, runState: unknown): Promise<JobRow | undefined> {
  const { rows } = await executor.query<JobRow>(
    `UPDATE ${schema}.job SET status = 'awaiting_approval', run_state = $3::jsonb, worker_id = NULL, heartbeat_at = NULL, updated_at = now()
     WHERE id = $1 AND lease_token = $2 AND status = 'running' RETURNING *`,
    [jobId, leaseToken, JSON.stringify(runState)],
  );
  if (rows[0] !== undefined) await queue.cancel(jobId, executor);
  return rows[0];
}

/** awaiting_approval → queued, once every held call is decided: the entry is claimable again. Returns whether it moved. */
export async function resumeJob(executor: SqlExecutor, { schema, queue }: JobTables, jobId: string): Promise<boolean> {
  const { rows } = await executor.query(`UPDATE ${schema}.job SET status = 'queued', updated_at = now() WHERE id = $1 AND status = 'awaiting_approval' RETURNING id`, [
    jobId,
  ]);
  if (rows.length !== 1) return false;
  await queue.resume(jobId, executor);
  return true;
}

/**
 * queued | running | awaiting_approval → cancelled, by its agent: its pending approvals can no longer be decided and a
 * queued entry leaves the queue (a running turn stops at its worker's next heartbeat). `undefined` when already over.
 */
export async function cancelJob(executor: SqlExecutor, { schema, queue }: JobTables, jobId: string, agentId: string): Promise<JobRow | undefined> {
  const { rows } = await executor.query<JobRow>(
    `UPDATE ${schema}.job SET status = 'cancelled', finished_at = now(), updated_at = now()
     WHERE id = $1 AND agent_id = $2 AND status IN ('queued', 'running', 'awaiting_approval') RETURNING *`,
    [jobId, agentId],
  );
  if (rows[0] === undefined) return undefined;
  await executor.query(`UPDATE ${schema}.approval SET status = 'cancelled', decided_at = now() WHERE job_id = $1 AND status = 'pending'`, [jobId]);
  await queue.cancel(jobId, executor);
  return rows[0];
}

/**
 * running past its lease, every attempt used (the queue gave up on it) → failed, the lease cleared (a late write by
 * that worker is refused as `lease_lost`). Returns how many it failed.
 */
export async function expireJobs(executor: SqlExecutor, { schema, queue }: JobTables, leaseSeconds: number): Promise<number> {
  const { rows } = await executor.query<{ id: string }>(
    `SELECT id FROM ${schema}.job WHERE status = 'running' AND heartbeat_at < now() - make_interval(secs => $1) LIMIT 100`,
    [leaseSeconds],
  );
  const failed = await queue.failedAmong(rows.map((row) => row.id));
  if (failed.length === 0) return 0;
  const result = await executor.query(
    `UPDATE ${schema}.job SET status = 'failed', lease_token = NULL, finished_at = now(), updated_at = now(),
       error = 'The worker running this job stopped responding and every attempt (' || attempts || ') was used.'
     WHERE id = ANY($1::uuid[]) AND status = 'running'`,
    [failed],
  );
  return result.rowCount;
}
