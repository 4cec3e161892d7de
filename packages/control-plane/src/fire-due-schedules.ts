import { randomUUID } from 'node:crypto';
import { isoTime, type ScheduleRow } from './records.js';
import { nextCronRun } from './schedule-timing.js';
import type { SqlDriver } from './sql-driver.js';
import type { TurnQueue } from './turn-queue.js';

/** What `fireDueSchedules` needs. */
export interface FireDueSchedulesOptions {
  driver: SqlDriver;
  schema: string;
  queue: TurnQueue;
  /** Most schedules fired per call (default 50). */
  batchSize?: number;
}

/**
 * Fires every active schedule whose next run time has come: for each, in one transaction, a
 * `scheduled` job with the schedule's prompt is queued for its agent and the next run time is
 * computed. Rows are locked with SKIP LOCKED and a job is unique per (schedule, fire time), so a
 * fire time starts exactly one turn however many processes run this at once. Missed fire times
 * (nothing ran for a while) collapse into one run. Returns how many jobs it queued.
 */
export async function fireDueSchedules(options: FireDueSchedulesOptions): Promise<number> {
  const { driver, schema, queue } = options;
  return driver.transaction(async (transaction) => {
    const { rows } = await transaction.query<ScheduleRow>(
      `SELECT * FROM ${schema}.schedule WHERE status = 'active' AND next_run_at <= now()
       ORDER BY next_run_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [options.batchSize ?? 50],
    );
    let queued = 0;
    for (const row of rows) {
      const fireAt = isoTime(row.next_run_at)!;
      const jobId = randomUUID();
      const inserted = await transaction.query(
        `INSERT INTO ${schema}.job (id, agent_id, kind, schedule_id, fire_at, title, prompt, home, allow_jobs)
         VALUES ($1, $2, 'scheduled', $3, $4, $5, $6, $7, true) ON CONFLICT (schedule_id, fire_at) DO NOTHING RETURNING id`,
        [jobId, row.agent_id, row.id, fireAt, row.title, row.prompt, row.home ?? null],
      );
      if (inserted.rows.length === 1) {
        await queue.enqueue(transaction, jobId);
        queued += 1;
      }
      const after = new Date(Math.max(Date.now(), new Date(fireAt).getTime()));
      const next = row.kind === 'cron' && row.cron !== null ? nextCronRun(row.cron, row.time_zone ?? 'UTC', after) : undefined;
      await transaction.query(
        `UPDATE ${schema}.schedule SET next_run_at = $2::timestamptz,
           status = CASE WHEN $2::timestamptz IS NULL THEN 'completed' ELSE status END,
           last_fired_at = $3, fire_count = fire_count + 1, updated_at = now()
         WHERE id = $1`,
        [row.id, next?.toISOString() ?? null, fireAt],
      );
    }
    return queued;
  });
}

/**
 * Marks as failed the jobs whose worker stopped heartbeating and that the queue gave up on
 * (every attempt used), clearing the lease (a late write by that worker is refused as `lease_lost`). Returns how many
 * it marked.
 */
export async function failAbandonedJobs(options: { driver: SqlDriver; schema: string; queue: TurnQueue; leaseSeconds: number }): Promise<number> {
  const { driver, schema, queue } = options;
  const { rows } = await driver.query<{ id: string }>(
    `SELECT id FROM ${schema}.job WHERE status = 'running' AND heartbeat_at < now() - make_interval(secs => $1) LIMIT 100`,
    [options.leaseSeconds],
  );
  const failed = await queue.failedAmong(rows.map((row) => row.id));
  if (failed.length === 0) return 0;
  const result = await driver.query(
    `UPDATE ${schema}.job SET status = 'failed', lease_token = NULL, finished_at = now(), updated_at = now(),
       error = 'The worker running this job stopped responding and every attempt (' || attempts || ') was used.'
     WHERE id = ANY($1::uuid[]) AND status = 'running'`,
    [failed],
  );
  return result.rowCount;
}
