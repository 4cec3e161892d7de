import { randomUUID } from 'node:crypto';
import { expireJobs, insertJob } from './job-transitions.js';
import { isoTime, type ScheduleRow } from './records.js';
import { nextCronRun } from './schedule-timing.js';
import type { SqlDriver } from './sql-driver.js';

/** What `fireDueSchedules` needs. */
export interface FireDueSchedulesOptions {
  driver: SqlDriver;
  schema: string;
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
  const { driver, schema } = options;
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
      const inserted = await insertJob(
        transaction,
        { schema },
        { id: jobId, agentId: row.agent_id, kind: 'scheduled', title: row.title, prompt: row.prompt, allowJobs: true, home: row.home ?? null, scheduled: { scheduleId: row.id, fireAt } },
      );
      if (inserted !== undefined) queued += 1;
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
 * Marks as failed the jobs whose worker stopped heartbeating after every attempt was used, clearing the lease (a late
 * write by that worker is refused as `lease_lost`). Returns how many it marked.
 */
export async function failAbandonedJobs(options: { driver: SqlDriver; schema: string; leaseSeconds: number; maxAttempts: number }): Promise<number> {
  return expireJobs(options.driver, { schema: options.schema }, options);
}
