import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createControlPlane, type ControlPlane, type ControlPlaneOptions } from './create-control-plane.js';
import { postgresTestDatabase, sharedPGlite, waitFor, type TestDatabase } from './__fixtures__/test-databases.js';

describe.each(['postgres', 'pglite'] as const)(`createControlPlane on %s (its background duties and databases; the calls are in the contract suite)`, (kind) => {
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
    const controlPlane = await createControlPlane({ ...target.options(), background: false, ...options });
    cleanups.push(() => controlPlane.close());
    return controlPlane;
  }

  describe('schedules', () => {
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
