import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlPlane, type ControlPlane } from './create-control-plane.js';
import { createPGliteDriver } from './pglite-driver.js';
import type { SqlDriver } from './sql-driver.js';
import { watchJobLease } from '@core/control-plane-client';

describe('watchJobLease', () => {
  let driver: SqlDriver;
  let plane: ControlPlane;
  beforeAll(async () => {
    driver = await createPGliteDriver();
    plane = await createControlPlane({ driver, background: false });
  }, 60_000);
  afterAll(async () => {
    await plane.close();
    await driver.close();
  });

  it('aborts the signal once the job is cancelled, with the reason', async () => {
    const job = await plane.client.jobs.start({ agentId: 'a', prompt: 'p' });
    const claimed = (await plane.client.work.claim({ workerId: 'w' }))!;
    const lease = watchJobLease({ work: plane.client.work, job: claimed, intervalMs: 50 });
    const aborted = new Promise<void>((resolve) => lease.signal.addEventListener('abort', () => resolve()));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lease.signal.aborted).toBe(false);
    await plane.client.jobs.cancel({ agentId: 'a', jobId: job.id });
    await aborted;
    expect(lease.reason()).toBe('cancelled');
    lease.stop();
  });

  it('keeps a healthy job running and stops beating when stopped', async () => {
    await plane.client.jobs.start({ agentId: 'b', prompt: 'p' });
    const claimed = (await plane.client.work.claim({ workerId: 'w' }))!;
    const lease = watchJobLease({ work: plane.client.work, job: claimed, intervalMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    lease.stop();
    expect(lease.signal.aborted).toBe(false);
    const before = (await plane.client.jobs.get({ agentId: 'b', jobId: claimed.id })).updatedAt;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await plane.client.jobs.get({ agentId: 'b', jobId: claimed.id })).updatedAt).toBe(before);
  });
});
