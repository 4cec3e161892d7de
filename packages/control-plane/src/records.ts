import type { JobRecord, JobStatus, ScheduleRecord, ScheduleStatus } from '@core/control-plane-client';
import { describeCron, nextCronRun } from './schedule-timing.js';

/** A `schedule` row as the database returns it. */
export interface ScheduleRow {
  id: string;
  agent_id: string;
  title: string;
  prompt: string;
  home: string | null;
  kind: 'cron' | 'once';
  cron: string | null;
  time_zone: string | null;
  run_at: Date | string | null;
  status: ScheduleStatus;
  next_run_at: Date | string | null;
  last_fired_at: Date | string | null;
  fire_count: number;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A `job` row as the database returns it. */
export interface JobRow {
  id: string;
  agent_id: string;
  kind: 'background' | 'scheduled';
  schedule_id: string | null;
  fire_at: Date | string | null;
  title: string;
  prompt: string;
  home: string | null;
  allow_jobs: boolean;
  status: JobStatus;
  final_answer: string | null;
  error: string | null;
  attempts: number;
  worker_id: string | null;
  lease_token: string | null;
  /** The lease of the claim that settled it (succeeded or failed by its worker). */
  settled_by?: string | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  updated_at: Date | string;
}

/** An ISO 8601 string from a driver's timestamp (a `Date` or a string). */
export function isoTime(value: Date | string): string;
export function isoTime(value: Date | string | null): string | null;
export function isoTime(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** A schedule row as the record the API returns, with its description and next run times. */
export function scheduleRecord(row: ScheduleRow, nextRunCount = 3): ScheduleRecord {
  const nextRunAt = isoTime(row.next_run_at);
  const nextRunTimes: string[] = [];
  if (row.status === 'active' && nextRunAt !== null) {
    nextRunTimes.push(nextRunAt);
    if (row.kind === 'cron' && row.cron !== null) {
      let after = new Date(nextRunAt);
      while (nextRunTimes.length < nextRunCount) {
        const next = nextCronRun(row.cron, row.time_zone ?? 'UTC', after);
        if (next === undefined) break;
        nextRunTimes.push(next.toISOString());
        after = next;
      }
    }
  }
  return {
    id: row.id,
    agentId: row.agent_id,
    title: row.title,
    prompt: row.prompt,
    home: row.home ?? null,
    kind: row.kind,
    cron: row.cron,
    timeZone: row.time_zone,
    runAt: isoTime(row.run_at),
    status: row.status,
    description:
      row.kind === 'cron' && row.cron !== null
        ? `${describeCron(row.cron)} (${row.time_zone ?? 'UTC'})`
        : `Once, at ${isoTime(row.run_at) ?? 'an unknown time'}`,
    nextRunTimes,
    lastFiredAt: isoTime(row.last_fired_at),
    fireCount: Number(row.fire_count),
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
  };
}

/** A job row as the record the API returns. */
export function jobRecord(row: JobRow): JobRecord {
  return {
    id: row.id,
    agentId: row.agent_id,
    kind: row.kind,
    scheduleId: row.schedule_id,
    fireAt: isoTime(row.fire_at),
    title: row.title,
    prompt: row.prompt,
    home: row.home ?? null,
    allowJobs: row.allow_jobs,
    status: row.status,
    finalAnswer: row.final_answer,
    error: row.error,
    attempts: Number(row.attempts),
    workerId: row.worker_id,
    createdAt: isoTime(row.created_at),
    startedAt: isoTime(row.started_at),
    finishedAt: isoTime(row.finished_at),
    updatedAt: isoTime(row.updated_at),
  };
}
