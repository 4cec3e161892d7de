import { describe, expect, it } from 'vitest';
import { ControlPlaneInputError, ControlPlaneNotFoundError } from '../index.js';
import type { ContractPlanes } from './contract-plane.js';

/** Schedules and background jobs: their calls, lifecycles, limits and agent scoping. */
export function describeScheduleJobContract(planes: ContractPlanes): void {
  describe('schedules and jobs', () => {
    it('creates a cron schedule with its description and next run times, lists it and cancels it', async () => {
      const { client } = await planes.open();
      const created = await client.schedules.create({ agentId: 'a', prompt: 'Summarise the news', cron: '0 9 * * 1-5', timeZone: 'Europe/Paris' });
      expect(created).toMatchObject({ agentId: 'a', kind: 'cron', status: 'active', timeZone: 'Europe/Paris', title: 'Summarise the news' });
      expect(created.description).toBe('At 09:00, Monday through Friday (Europe/Paris)');
      expect(created.nextRunTimes).toHaveLength(3);
      expect(new Date(created.nextRunTimes[0]!).getTime()).toBeGreaterThan(Date.now());

      const once = await client.schedules.create({ agentId: 'a', prompt: 'Remind me', runAt: new Date(Date.now() + 3_600_000).toISOString() });
      expect(once).toMatchObject({ kind: 'once', nextRunTimes: [once.runAt] });

      expect((await client.schedules.list({ agentId: 'a' })).map((schedule) => schedule.id).sort()).toEqual([created.id, once.id].sort());
      const cancelled = await client.schedules.cancel({ agentId: 'a', scheduleId: created.id });
      expect(cancelled).toMatchObject({ status: 'cancelled', nextRunTimes: [] });
      expect((await client.schedules.list({ agentId: 'a' })).map((schedule) => schedule.id)).toEqual([once.id]);
      expect(await client.schedules.list({ agentId: 'a', includeInactive: true })).toHaveLength(2);
    });

    it('refuses invalid crons, unknown time zones, past times and too-frequent crons with clear errors', async () => {
      const { client } = await planes.open({ minScheduleIntervalSeconds: 3600 });
      const attempt = (input: Record<string, unknown>) => client.schedules.create({ agentId: 'a', prompt: 'p', ...input });
      await expect(attempt({ cron: 'every day at 9' })).rejects.toMatchObject({ code: 'cron_invalid', field: 'cron' });
      await expect(attempt({ cron: '0 9 * * *', timeZone: 'Mars/Olympus' })).rejects.toMatchObject({ code: 'time_zone_invalid' });
      await expect(attempt({ runAt: '2020-01-01T00:00:00Z' })).rejects.toMatchObject({ code: 'run_at_in_past' });
      await expect(attempt({ runAt: 'tomorrow' })).rejects.toMatchObject({ code: 'run_at_invalid' });
      await expect(attempt({ cron: '*/5 * * * *' })).rejects.toThrow(/runs every 5 min, more often than the minimum interval of 1 h/);
      await expect(attempt({ cron: '0 9 * * *', runAt: new Date(Date.now() + 60_000).toISOString() })).rejects.toMatchObject({ code: 'input_invalid' });
      await expect(attempt({ prompt: '' , cron: '0 9 * * *' })).rejects.toBeInstanceOf(ControlPlaneInputError);
      expect(await client.schedules.list({ agentId: 'a', includeInactive: true })).toEqual([]);
    });

    it('runs a job through its life: queued, claimed, heartbeated, succeeded with its final answer', async () => {
      const { client } = await planes.open();
      const job = await client.jobs.start({ agentId: 'a', prompt: 'Research pg-boss', title: 'Research' });
      expect(job).toMatchObject({ status: 'queued', kind: 'background', allowJobs: false, attempts: 0, title: 'Research' });

      const claimed = await client.work.claim({ workerId: 'w1' });
      expect(claimed).toMatchObject({ id: job.id, status: 'running', attempts: 1, workerId: 'w1' });
      expect(await client.work.claim({ workerId: 'w2' })).toBeNull();
      expect(await client.work.heartbeat({ jobId: job.id, leaseToken: claimed!.leaseToken })).toEqual({ keepRunning: true, status: 'running' });

      const done = await client.work.complete({ jobId: job.id, leaseToken: claimed!.leaseToken, finalAnswer: 'pg-boss is a queue.' });
      expect(done).toMatchObject({ status: 'succeeded', finalAnswer: 'pg-boss is a queue.' });
      expect(done.finishedAt).not.toBeNull();
      expect(await client.jobs.get({ agentId: 'a', jobId: job.id })).toMatchObject({ status: 'succeeded' });
      expect(await client.work.claim({ workerId: 'w1' })).toBeNull();
    });

    it('stores a failure without retrying it', async () => {
      const { client } = await planes.open();
      const job = await client.jobs.start({ agentId: 'a', prompt: 'p' });
      const claimed = await client.work.claim({ workerId: 'w1' });
      expect(await client.work.fail({ jobId: job.id, leaseToken: claimed!.leaseToken, error: 'model unreachable' })).toMatchObject({
        status: 'failed',
        error: 'model unreachable',
      });
      expect(await client.work.claim({ workerId: 'w1' })).toBeNull();
    });

    it('cancels a queued job so no worker claims it, and a running one so its heartbeat says stop', async () => {
      const { client } = await planes.open();
      const queued = await client.jobs.start({ agentId: 'a', prompt: 'one' });
      expect(await client.jobs.cancel({ agentId: 'a', jobId: queued.id })).toMatchObject({ status: 'cancelled' });
      expect(await client.work.claim({ workerId: 'w1' })).toBeNull();

      const running = await client.jobs.start({ agentId: 'a', prompt: 'two' });
      const claimed = await client.work.claim({ workerId: 'w1' });
      expect(claimed?.id).toBe(running.id);
      await client.jobs.cancel({ agentId: 'a', jobId: running.id });
      expect(await client.work.heartbeat({ jobId: running.id, leaseToken: claimed!.leaseToken })).toEqual({ keepRunning: false, status: 'cancelled' });
      expect(await client.work.complete({ jobId: running.id, leaseToken: claimed!.leaseToken, finalAnswer: 'late' })).toMatchObject({
        status: 'cancelled',
        finalAnswer: null,
      });
      // Cancelling a finished job returns it unchanged.
      expect(await client.jobs.cancel({ agentId: 'a', jobId: running.id })).toMatchObject({ status: 'cancelled' });
    });

    it('hands a released job to another worker', async () => {
      const { client } = await planes.open();
      const job = await client.jobs.start({ agentId: 'a', prompt: 'p' });
      const first = await client.work.claim({ workerId: 'w1' });
      expect(await client.work.release({ jobId: job.id, leaseToken: first!.leaseToken })).toMatchObject({ status: 'queued', workerId: null });
      const second = await client.work.claim({ workerId: 'w2' });
      expect(second).toMatchObject({ id: job.id, workerId: 'w2', attempts: 2 });
    });

    it('limits unfinished jobs per agent', async () => {
      const { client } = await planes.open({ maxUnfinishedJobsPerAgent: 2 });
      await client.jobs.start({ agentId: 'a', prompt: '1' });
      await client.jobs.start({ agentId: 'a', prompt: '2' });
      await expect(client.jobs.start({ agentId: 'a', prompt: '3' })).rejects.toMatchObject({ code: 'job_limit_reached' });
      expect(await client.jobs.start({ agentId: 'b', prompt: '1' })).toMatchObject({ status: 'queued' });
    });

    it("keeps every agent to its own schedules and jobs: another agent's id is not found", async () => {
      const { client } = await planes.open();
      const schedule = await client.schedules.create({ agentId: 'alice', prompt: 'p', cron: '0 9 * * *' });
      const job = await client.jobs.start({ agentId: 'alice', prompt: 'p' });
      expect(await client.schedules.list({ agentId: 'bob' })).toEqual([]);
      expect(await client.jobs.list({ agentId: 'bob' })).toEqual([]);
      await expect(client.schedules.get({ agentId: 'bob', scheduleId: schedule.id })).rejects.toBeInstanceOf(ControlPlaneNotFoundError);
      await expect(client.schedules.cancel({ agentId: 'bob', scheduleId: schedule.id })).rejects.toMatchObject({ code: 'schedule_not_found' });
      await expect(client.jobs.get({ agentId: 'bob', jobId: job.id })).rejects.toMatchObject({ code: 'job_not_found' });
      await expect(client.jobs.cancel({ agentId: 'bob', jobId: job.id })).rejects.toMatchObject({ code: 'job_not_found' });
      await expect(client.jobs.get({ agentId: 'alice', jobId: 'not-an-id' })).rejects.toMatchObject({ code: 'job_not_found' });
      expect((await client.jobs.get({ agentId: 'alice', jobId: job.id })).status).toBe('queued');
      expect((await client.schedules.get({ agentId: 'alice', scheduleId: schedule.id })).status).toBe('active');
    });

    it('parses every input with zod: a malformed payload is refused with input_invalid naming the call', async () => {
      const { client } = await planes.open();
      const bad = (value: unknown) => value as never;
      const lease = { jobId: '00000000-0000-4000-8000-000000000000', leaseToken: '00000000-0000-4000-8000-000000000000' };
      const calls: Array<[string, () => Promise<unknown>]> = [
        ['schedules.create', () => client.schedules.create(bad({ agentId: 'a', prompt: 'p', cron: 42 }))],
        ['schedules.list', () => client.schedules.list(bad({ agentId: '' }))],
        ['schedules.get', () => client.schedules.get(bad({ agentId: 'a' }))],
        ['schedules.cancel', () => client.schedules.cancel(bad(null))],
        ['jobs.start', () => client.jobs.start({ agentId: 'a', prompt: '   ' })],
        ['jobs.get', () => client.jobs.get(bad({ agentId: 'a', jobId: 7 }))],
        ['jobs.list', () => client.jobs.list(bad({ agentId: 'a', status: ['done'] }))],
        ['jobs.cancel', () => client.jobs.cancel(bad('a'))],
        ['work.claim', () => client.work.claim({ workerId: '' })],
        ['work.heartbeat', () => client.work.heartbeat(bad({ jobId: lease.jobId }))],
        ['work.complete', () => client.work.complete(bad({ ...lease, finalAnswer: null }))],
        ['work.fail', () => client.work.fail(bad({ ...lease }))],
        ['work.release', () => client.work.release(bad({}))],
      ];
      for (const [operation, call] of calls) {
        await expect(call(), operation).rejects.toMatchObject({ code: 'input_invalid', message: expect.stringContaining(`Invalid input to ${operation}:`) });
      }
      expect(await client.jobs.list({ agentId: 'a' })).toEqual([]);
    });
  });
}
