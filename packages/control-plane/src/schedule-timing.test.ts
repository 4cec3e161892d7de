import { describe, expect, it } from 'vitest';
import { describeCron, nextCronRun, planCronSchedule, planOneTimeSchedule } from './schedule-timing.js';

const now = new Date('2026-03-27T12:00:00Z');

describe('planCronSchedule', () => {
  it('computes the next runs in the given time zone, across a daylight-saving change', () => {
    const timing = planCronSchedule({ cron: '0 9 * * *', timeZone: 'Europe/Paris', minIntervalSeconds: 60, now });
    expect(timing.nextRuns.map((run) => run.toISOString())).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
    ]);
    expect(timing.description).toBe('At 09:00 (Europe/Paris)');
  });

  it('accepts six fields with seconds when the minimum interval allows it', () => {
    expect(planCronSchedule({ cron: '*/10 * * * * *', minIntervalSeconds: 10, now }).nextRuns).toHaveLength(3);
    expect(() => planCronSchedule({ cron: '*/10 * * * * *', minIntervalSeconds: 60, now })).toThrow(/runs every 10 s/);
  });

  it('finds the shortest gap even when the runs are irregular', () => {
    expect(() => planCronSchedule({ cron: '0,1 9 * * *', minIntervalSeconds: 300, now })).toThrow(/runs every 1 min/);
  });

  it('rejects expressions that never run', () => {
    expect(() => planCronSchedule({ cron: '0 0 30 2 *', minIntervalSeconds: 60, now })).toThrow();
  });
});

describe('planOneTimeSchedule', () => {
  it('accepts a future date-time with an offset', () => {
    expect(planOneTimeSchedule({ runAt: '2026-03-27T14:30:00+01:00', now }).nextRuns[0]!.toISOString()).toBe('2026-03-27T13:30:00.000Z');
  });

  it('rejects a date-time without an offset, since its time zone would be a guess', () => {
    expect(() => planOneTimeSchedule({ runAt: '2026-03-28T09:00:00', now })).toThrow(/ISO 8601 date-time with a time zone offset/);
  });
});

describe('nextCronRun and describeCron', () => {
  it('gives the run strictly after a time', () => {
    expect(nextCronRun('0 * * * *', 'UTC', new Date('2026-03-27T12:00:00Z'))?.toISOString()).toBe('2026-03-27T13:00:00.000Z');
  });

  it('describes an expression in words', () => {
    expect(describeCron('30 8 * * 1-5')).toBe('At 08:30, Monday through Friday');
  });
});
