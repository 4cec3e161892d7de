import { beforeEach, describe, expect, it } from 'vitest';
import { watchJobLease } from '../index.js';
import type { ContractPlane, ContractPlanes } from './contract-plane.js';
import { EXAMPLE_WORKFLOW_SCRIPT } from './example-workflow-script.js';

// Each wait below is longer than the test's own timeout (15 s) and the control plane never re-checks on its own
// (`longPollRecheckMs` 60 s): a call can only answer in time because the database's change notification woke it.
const LONG = 30_000;
const TEST_TIMEOUT = 15_000;

/** Long polls: waiting claims and heartbeats answer as soon as work is queued or cancelled. */
export function describeLongPollContract(planes: ContractPlanes): void {
  describe('long polls', () => {
    // Leases long enough that a heartbeat may wait LONG (it waits at most a third of the lease). Opened before each test,
    // outside its timeout (a first PGlite takes a while on a loaded machine).
    let plane: ContractPlane;
    beforeEach(async () => {
      plane = await planes.open({ longPollRecheckMs: 60_000, leaseSeconds: 120, workflowLimits: { taskLeaseSeconds: 120 } });
    });

    /** Resolves once `promise` settled, recording `name` in `events` then. */
    const track = <T>(events: string[], name: string, promise: Promise<T>) => promise.then((value) => (events.push(name), value));

    it('a waiting claim takes a job as soon as it is queued', { timeout: TEST_TIMEOUT }, async () => {
      const events: string[] = [];
      const claim = track(events, 'claimed', plane.client.work.claim({ workerId: 'w', waitMs: LONG }));
      // A round trip after the claim was sent: it is still waiting (nothing to claim).
      await plane.client.jobs.list({ agentId: 'a' });
      events.push('queued');
      const job = await plane.client.jobs.start({ agentId: 'a', prompt: 'p' });
      const claimed = await claim;
      expect(events).toEqual(['queued', 'claimed']);
      expect(claimed).toMatchObject({ id: job.id, status: 'running', workerId: 'w', leaseToken: expect.any(String) });
    });

    it('a waiting job claim answers null as soon as a workflow advance is due (so the worker looks there), and a task claim takes the task', { timeout: TEST_TIMEOUT }, async () => {
      const events: string[] = [];
      const jobClaim = track(events, 'job claim answered', plane.client.work.claim({ workerId: 'w', waitMs: LONG }));
      await plane.client.jobs.list({ agentId: 'a' });
      events.push('workflow started');
      await plane.client.workflows.start({ agentId: 'a', title: 'Example', script: EXAMPLE_WORKFLOW_SCRIPT, input: { topics: ['tides', 'reefs'] } });
      expect(await jobClaim).toBeNull();
      expect(events).toEqual(['workflow started', 'job claim answered']);
      const taskClaim = track(events, 'task claimed', plane.client.tasks.claim({ workerId: 'w', waitMs: LONG }));
      await plane.client.jobs.list({ agentId: 'a' });
      events.push('advanced');
      expect(await plane.client.advances.runNext({ workerId: 'w' })).toMatchObject({ newTasks: expect.any(Number) });
      expect(await taskClaim).toMatchObject({ status: 'running', workflowTitle: 'Example' });
      expect(events.slice(2)).toEqual(['advanced', 'task claimed']);
    });

    it('a waiting heartbeat answers as soon as its job is cancelled', { timeout: TEST_TIMEOUT }, async () => {
      const job = await plane.client.jobs.start({ agentId: 'a', prompt: 'p' });
      const claimed = (await plane.client.work.claim({ workerId: 'w' }))!;
      const events: string[] = [];
      const beat = track(events, 'heartbeat answered', plane.client.work.heartbeat({ jobId: job.id, leaseToken: claimed.leaseToken, waitMs: LONG }));
      await plane.client.jobs.get({ agentId: 'a', jobId: job.id });
      events.push('cancelled');
      await plane.client.jobs.cancel({ agentId: 'a', jobId: job.id });
      expect(await beat).toEqual({ keepRunning: false, status: 'cancelled' });
      expect(events).toEqual(['cancelled', 'heartbeat answered']);
    });

    it('watchJobLease stops the turn on a cancel at once, long before its next beat', { timeout: TEST_TIMEOUT }, async () => {
      const job = await plane.client.jobs.start({ agentId: 'a', prompt: 'p' });
      const claimed = (await plane.client.work.claim({ workerId: 'w' }))!;
      const errors: unknown[] = [];
      const lease = watchJobLease({ work: plane.client.work, job: claimed, intervalMs: LONG, onError: (error) => errors.push(error) });
      try {
        const aborted = new Promise<void>((resolve) => lease.signal.addEventListener('abort', () => resolve()));
        // The first heartbeat extended the claim and is waiting now.
        await plane.client.jobs.get({ agentId: 'a', jobId: job.id });
        expect(lease.signal.aborted).toBe(false);
        await plane.client.jobs.cancel({ agentId: 'a', jobId: job.id });
        await aborted;
        expect(lease.reason()).toBe('cancelled');
        expect(errors).toEqual([]);
      } finally {
        lease.stop();
      }
    });

    it('a waiting task heartbeat answers as soon as its workflow is cancelled', { timeout: TEST_TIMEOUT }, async () => {
      const workflow = await plane.client.workflows.start({ agentId: 'a', title: 'Example', script: EXAMPLE_WORKFLOW_SCRIPT, input: { topics: ['tides', 'reefs'] } });
      await plane.client.advances.runNext({ workerId: 'w' });
      const task = (await plane.client.tasks.claim({ workerId: 'w' }))!;
      const events: string[] = [];
      const beat = track(events, 'heartbeat answered', plane.client.tasks.heartbeat({ taskId: task.id, leaseToken: task.leaseToken, waitMs: LONG }));
      await plane.client.workflows.get({ agentId: 'a', workflowId: workflow.id });
      events.push('cancelled');
      await plane.client.workflows.cancel({ agentId: 'a', workflowId: workflow.id });
      expect(await beat).toEqual({ keepRunning: false, status: 'cancelled' });
      expect(events).toEqual(['cancelled', 'heartbeat answered']);
    });

    it('a waiting claim whose recheck found nothing answers null long before its wait runs out (the caller looks at every kind of work again)', { timeout: TEST_TIMEOUT }, async () => {
      // A task queued (or an advance due again) without a notification reaching this wait, e.g. between the worker's
      // own look at tasks and its job claim, would otherwise wait for the whole waitMs.
      const rechecking = await planes.open({ longPollRecheckMs: 200 });
      expect(await rechecking.client.work.claim({ workerId: 'w', waitMs: LONG })).toBeNull();
      expect(await rechecking.client.tasks.claim({ workerId: 'w', waitMs: LONG })).toBeNull();
    });

    it('a claim without waitMs, or with a wait that runs out, answers null', async () => {
      expect(await plane.client.work.claim({ workerId: 'w' })).toBeNull();
      expect(await plane.client.work.claim({ workerId: 'w', waitMs: 100 })).toBeNull();
      await expect(plane.client.work.claim({ workerId: 'w', waitMs: 60_000 })).rejects.toMatchObject({ code: 'input_invalid', field: 'waitMs' });
    });
  });
}
