import { Cron } from 'croner';
import cronstrue from 'cronstrue';
import { ControlPlaneInputError } from '@core/control-plane-client';

/** When a schedule runs, as computed from its cron expression or its one-time date. */
export interface ScheduleTiming {
  /** A human-readable description ("At 09:00 AM, Monday through Friday (Europe/Paris)"). */
  description: string;
  /** The next run times, soonest first (empty when it never runs again). */
  nextRuns: Date[];
}

/** Options of `planCronSchedule`. */
export interface CronPlanOptions {
  cron: string;
  /** An IANA time zone (`Europe/Paris`); default `UTC`. */
  timeZone?: string | undefined;
  /** Refuse crons whose runs come closer together than this (seconds). */
  minIntervalSeconds: number;
  /** How many next runs to return (default 3). */
  count?: number;
  now?: Date;
}

/**
 * Validates a cron expression (5 fields, or 6 with seconds first) in a time zone and computes its next runs.
 * @throws ControlPlaneInputError (`time_zone_invalid`, `cron_invalid`, `schedule_never_runs`, `schedule_too_frequent`).
 */
export function planCronSchedule(options: CronPlanOptions): ScheduleTiming {
  const timeZone = checkTimeZone(options.timeZone ?? 'UTC');
  const now = options.now ?? new Date();
  let cron: Cron;
  try {
    cron = new Cron(options.cron.trim(), { timezone: timeZone, mode: '5-or-6-parts', paused: true });
  } catch (error) {
    throw new ControlPlaneInputError(
      'cron_invalid',
      `The cron expression "${options.cron}" is invalid: ${(error as Error).message}. Use 5 fields "minute hour day-of-month month day-of-week" (e.g. "0 9 * * 1-5"), or 6 with seconds first.`,
      { field: 'cron', cause: error },
    );
  }
  const probe = cron.nextRuns(20, now);
  if (probe.length === 0) {
    throw new ControlPlaneInputError('schedule_never_runs', `The cron expression "${options.cron}" never runs after ${now.toISOString()}.`, {
      field: 'cron',
    });
  }
  const minGapMs = smallestGap(probe);
  if (minGapMs !== undefined && minGapMs < options.minIntervalSeconds * 1000) {
    throw new ControlPlaneInputError(
      'schedule_too_frequent',
      `The cron expression "${options.cron}" runs every ${formatSeconds(minGapMs / 1000)}, more often than the minimum interval of ${formatSeconds(options.minIntervalSeconds)}. Choose a less frequent schedule.`,
      { field: 'cron' },
    );
  }
  return { description: `${describeCron(options.cron)} (${timeZone})`, nextRuns: probe.slice(0, options.count ?? 3) };
}

/**
 * The next run of a cron schedule strictly after `after`, or `undefined` when there is none.
 * The expression must have been validated by `planCronSchedule`.
 */
export function nextCronRun(cron: string, timeZone: string, after: Date): Date | undefined {
  return new Cron(cron, { timezone: timeZone, mode: '5-or-6-parts', paused: true }).nextRun(after) ?? undefined;
}

/** Options of `planOneTimeSchedule`. */
export interface OneTimePlanOptions {
  /** An ISO 8601 date-time with an offset or `Z` (`2026-12-01T09:00:00+01:00`). */
  runAt: string;
  now?: Date;
}

/**
 * Validates a one-time date-time (must be in the future) and describes it.
 * @throws ControlPlaneInputError (`run_at_invalid`, `run_at_in_past`).
 */
export function planOneTimeSchedule(options: OneTimePlanOptions): ScheduleTiming {
  const now = options.now ?? new Date();
  const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;
  const runAt = new Date(options.runAt);
  if (!isoDateTime.test(options.runAt.trim()) || Number.isNaN(runAt.getTime())) {
    throw new ControlPlaneInputError(
      'run_at_invalid',
      `runAt "${options.runAt}" is not an ISO 8601 date-time with a time zone offset. Use e.g. "2026-12-01T09:00:00Z" or "2026-12-01T10:00:00+01:00".`,
      { field: 'runAt' },
    );
  }
  if (runAt.getTime() <= now.getTime()) {
    throw new ControlPlaneInputError(
      'run_at_in_past',
      `runAt ${runAt.toISOString()} is in the past (it is now ${now.toISOString()}). Choose a future date-time.`,
      { field: 'runAt' },
    );
  }
  return { description: `Once, at ${runAt.toISOString()}`, nextRuns: [runAt] };
}

/** A cron expression in words (cronstrue), or the expression itself when it cannot describe it. */
export function describeCron(cron: string): string {
  try {
    return cronstrue.toString(cron.trim(), { use24HourTimeFormat: true, throwExceptionOnParseError: true });
  } catch {
    return `cron "${cron}"`;
  }
}

function checkTimeZone(timeZone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch (error) {
    throw new ControlPlaneInputError(
      'time_zone_invalid',
      `The time zone "${timeZone}" is unknown. Use an IANA name such as "UTC", "Europe/Paris" or "America/New_York".`,
      { field: 'timeZone', cause: error },
    );
  }
}

function smallestGap(runs: Date[]): number | undefined {
  let smallest: number | undefined;
  for (let index = 1; index < runs.length; index += 1) {
    const gap = runs[index]!.getTime() - runs[index - 1]!.getTime();
    if (smallest === undefined || gap < smallest) smallest = gap;
  }
  return smallest;
}

function formatSeconds(seconds: number): string {
  if (seconds % 3600 === 0 && seconds >= 3600) return `${seconds / 3600} h`;
  if (seconds % 60 === 0 && seconds >= 60) return `${seconds / 60} min`;
  return `${seconds} s`;
}
