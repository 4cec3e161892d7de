import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createControlPlane, type ControlPlane, type ControlPlaneOptions } from './create-control-plane.js';
import { ControlPlaneInputError, ControlPlaneNotFoundError } from '@core/control-plane-client';
import { postgresTestDatabase, sharedPGlite, waitFor, type TestDatabase } from './__fixtures__/test-databases.js';
import { clientTransport } from './__fixtures__/client-transport.js';

describe.each(['postgres', 'pglite'] as const)(`createControlPlane on %s (${clientTransport.name})`, (kind) => {
  let shared: Awaited<ReturnType<typeof sharedPGlite>> | undefined;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    if (kind === 'pglite') shared = await sharedPGlite();
  }, 60_000);
  afterAll(async () => {
    await shared?.close();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function database(): Promise<TestDatabase> {
    const created = kind === 'postgres' ? await postgresTestDatabase() : shared!.database();
    cleanups.push(() => created.cleanup());
    return created;
  }

  async function open(options: Partial<ControlPlaneOptions> = {}, where?: TestDatabase): Promise<ControlPlane> {
    const target = where ?? (await database());
    const controlPlane = await clientTransport.wrap(await createControlPlane({ ...target.options(), background: false, ...options }));
    cleanups.push(() => controlPlane.close());
    return controlPlane;
  }

  describe('schedules', () => {
    it('creates a cron schedule with its description and next run times, lists it and cancels it', async () => {
      const { client } = await open();
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
      const { client } = await open({ minScheduleIntervalSeconds: 3600 });
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

    it('fires a due schedule exactly once per fire time, as a scheduled job with its prompt', async () => {
      const { client, fireDueSchedules } = await open({ minScheduleIntervalSeconds: 1 });
      const once = await client.schedules.create({ agentId: 'a', prompt: 'Water the plants', runAt: new Date(Date.now() + 1_000).toISOString() });
      await waitFor(async () => ((await fireDueSchedules()) > 0 ? true : undefined), 10_000, 'the one-time schedule to fire');
      expect(await fireDueSchedules()).toBe(0);
      const jobs = await client.jobs.list({ agentId: 'a' });
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ kind: 'scheduled', scheduleId: once.id, prompt: 'Water the plants', status: 'queued', allowJobs: true });
      // On time: the job is for the schedule's date-time, and was queued at it or after it (never early).
      expect(jobs[0]!.fireAt).toBe(once.runAt);
      expect(Date.parse(jobs[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(once.runAt!));
      expect(await client.schedules.get({ agentId: 'a', scheduleId: once.id })).toMatchObject({ status: 'completed', fireCount: 1, nextRunTimes: [] });
    });

    it('fires a cron schedule by itself (the background timer) and keeps it active', async () => {
      const { client } = await open({ minScheduleIntervalSeconds: 1, background: true, timerIntervalMs: 200 });
      const every = await client.schedules.create({ agentId: 'a', prompt: 'Tick', cron: '* * * * * *' });
      const jobs = await waitFor(async () => {
        const listed = await client.jobs.list({ agentId: 'a' });
        return listed.length >= 2 ? listed : undefined;
      }, 15_000, 'two fires');
      expect(new Set(jobs.map((job) => job.scheduleId))).toEqual(new Set([every.id]));
      // On time: the first run is the first run time announced at creation, each job is for a distinct
      // run time of the cron, and none was queued before its time.
      const fireTimes = jobs.map((job) => job.fireAt!).sort();
      expect(fireTimes[0]).toBe(every.nextRunTimes[0]);
      expect(new Set(fireTimes).size).toBe(jobs.length);
      for (const job of jobs) {
        expect(new Date(job.fireAt!).getMilliseconds()).toBe(0);
        expect(Date.parse(job.createdAt)).toBeGreaterThanOrEqual(Date.parse(job.fireAt!));
      }
      expect((await client.schedules.get({ agentId: 'a', scheduleId: every.id })).status).toBe('active');
      await client.schedules.cancel({ agentId: 'a', scheduleId: every.id });
    });
  });

  describe('jobs', () => {
    it('runs a job through its life: queued, claimed, heartbeated, succeeded with its final answer', async () => {
      const { client } = await open();
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
      const { client } = await open();
      const job = await client.jobs.start({ agentId: 'a', prompt: 'p' });
      const claimed = await client.work.claim({ workerId: 'w1' });
      expect(await client.work.fail({ jobId: job.id, leaseToken: claimed!.leaseToken, error: 'model unreachable' })).toMatchObject({
        status: 'failed',
        error: 'model unreachable',
      });
      expect(await client.work.claim({ workerId: 'w1' })).toBeNull();
    });

    it('cancels a queued job so no worker claims it, and a running one so its heartbeat says stop', async () => {
      const { client } = await open();
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
      const { client } = await open();
      const job = await client.jobs.start({ agentId: 'a', prompt: 'p' });
      const first = await client.work.claim({ workerId: 'w1' });
      expect(await client.work.release({ jobId: job.id, leaseToken: first!.leaseToken })).toMatchObject({ status: 'queued', workerId: null });
      const second = await client.work.claim({ workerId: 'w2' });
      expect(second).toMatchObject({ id: job.id, workerId: 'w2', attempts: 2 });
    });

    it('gives an expired claim to another worker and ignores the first worker afterwards', async () => {
      const { client } = await open({ leaseSeconds: 1, maintenanceIntervalSeconds: 1, background: true, timerIntervalMs: 200 });
      const job = await client.jobs.start({ agentId: 'a', prompt: 'p' });
      const lost = await client.work.claim({ workerId: 'w1' });
      const taken = await waitFor(async () => (await client.work.claim({ workerId: 'w2' })) ?? undefined, 20_000, 'the expired claim');
      expect(taken).toMatchObject({ id: job.id, workerId: 'w2', attempts: 2 });
      expect(await client.work.heartbeat({ jobId: job.id, leaseToken: lost!.leaseToken })).toEqual({ keepRunning: false, status: 'running' });
      await expect(client.work.complete({ jobId: job.id, leaseToken: lost!.leaseToken, finalAnswer: 'stale' })).rejects.toMatchObject({ code: 'lease_lost' });
      expect(await client.work.complete({ jobId: job.id, leaseToken: taken.leaseToken, finalAnswer: 'fresh' })).toMatchObject({
        status: 'succeeded',
        finalAnswer: 'fresh',
      });
    }, 30_000);

    it("holds a claim for the claiming process's lease, not the lease of the process that queued the job", async () => {
      const where = await database();
      const queuer = await open({ leaseSeconds: 600 }, where);
      const worker = await open({ leaseSeconds: 1, background: true }, where);
      const job = await queuer.client.jobs.start({ agentId: 'a', prompt: 'p' });
      const lost = await worker.client.work.claim({ workerId: 'w1' });
      expect(lost).toMatchObject({ id: job.id });
      // No heartbeat: the claim runs out after the worker's 1 s, not the queuer's 600 s.
      const taken = await waitFor(async () => (await worker.client.work.claim({ workerId: 'w2' })) ?? undefined, 20_000, 'the expired claim');
      expect(taken).toMatchObject({ id: job.id, workerId: 'w2', attempts: 2 });
    }, 30_000);

    it('looks for expired claims as soon as a process starts, not one interval later', async () => {
      const where = await database();
      const dead = await open({ leaseSeconds: 1 }, where);
      const job = await dead.client.jobs.start({ agentId: 'a', prompt: 'p' });
      expect(await dead.client.work.claim({ workerId: 'dead' })).toMatchObject({ id: job.id });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // This process would look again only after an hour: only its first look, at start, can find the claim.
      const started = await open({ background: true, maintenanceIntervalSeconds: 3600 }, where);
      const taken = await waitFor(async () => (await started.client.work.claim({ workerId: 'w2' })) ?? undefined, 20_000, 'the expired claim');
      expect(taken).toMatchObject({ id: job.id, workerId: 'w2', attempts: 2 });
    }, 30_000);

    it('keeps a heartbeating claim past its lease: no other worker gets the job', async () => {
      const { client } = await open({ leaseSeconds: 1, maintenanceIntervalSeconds: 1, background: true, timerIntervalMs: 200 });
      const job = await client.jobs.start({ agentId: 'a', prompt: 'p' });
      const claimed = (await client.work.claim({ workerId: 'w1' }))!;
      for (let beat = 0; beat < 12; beat += 1) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        expect(await client.work.heartbeat({ jobId: job.id, leaseToken: claimed.leaseToken })).toEqual({ keepRunning: true, status: 'running' });
        expect(await client.work.claim({ workerId: 'w2' })).toBeNull();
      }
      expect(await client.work.complete({ jobId: job.id, leaseToken: claimed.leaseToken, finalAnswer: 'ok' })).toMatchObject({
        status: 'succeeded',
        attempts: 1,
        workerId: 'w1',
      });
    }, 40_000);

    it('marks a job failed once its worker vanished and every attempt was used', async () => {
      const { client } = await open({ leaseSeconds: 1, maxAttempts: 1, maintenanceIntervalSeconds: 1, background: true, timerIntervalMs: 200 });
      const job = await client.jobs.start({ agentId: 'a', prompt: 'p' });
      const vanished = (await client.work.claim({ workerId: 'vanishing' }))!;
      expect(vanished).toMatchObject({ id: job.id });
      const failed = await waitFor(async () => {
        const stored = await client.jobs.get({ agentId: 'a', jobId: job.id });
        return stored.status === 'failed' ? stored : undefined;
      }, 25_000, 'the abandoned job to fail');
      expect(failed.error).toBe('The worker running this job stopped responding and every attempt (1) was used.');
      // Its lease ran out: a late answer from that worker is refused.
      await expect(client.work.complete({ jobId: job.id, leaseToken: vanished.leaseToken, finalAnswer: 'late' })).rejects.toMatchObject({ code: 'lease_lost' });
      expect(await client.work.claim({ workerId: 'w2' })).toBeNull();
    }, 40_000);

    it('limits unfinished jobs per agent', async () => {
      const { client } = await open({ maxUnfinishedJobsPerAgent: 2 });
      await client.jobs.start({ agentId: 'a', prompt: '1' });
      await client.jobs.start({ agentId: 'a', prompt: '2' });
      await expect(client.jobs.start({ agentId: 'a', prompt: '3' })).rejects.toMatchObject({ code: 'job_limit_reached' });
      expect(await client.jobs.start({ agentId: 'b', prompt: '1' })).toMatchObject({ status: 'queued' });
    });
  });

  it("keeps every agent to its own schedules and jobs: another agent's id is not found", async () => {
    const { client } = await open();
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
    const { client } = await open();
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

  it('keeps schedules and jobs across a restart', async () => {
    const where = kind === 'postgres' ? await database() : await (await import('./__fixtures__/test-databases.js')).pgliteTestDatabase();
    if (kind === 'pglite') cleanups.push(() => where.cleanup());
    const first = await createControlPlane({ ...where.options(), background: false });
    const schedule = await first.client.schedules.create({ agentId: 'a', prompt: 'p', cron: '0 9 * * *' });
    const job = await first.client.jobs.start({ agentId: 'a', prompt: 'q' });
    await first.close();

    const second = await open({}, where);
    expect(await second.client.schedules.get({ agentId: 'a', scheduleId: schedule.id })).toMatchObject({ status: 'active', prompt: 'p' });
    expect(await second.client.work.claim({ workerId: 'w' })).toMatchObject({ id: job.id, prompt: 'q' });
  }, 60_000);
});
