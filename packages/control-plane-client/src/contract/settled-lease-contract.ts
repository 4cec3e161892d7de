import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ContractPlane, ContractPlanes } from './contract-plane.js';

const TEXT = { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } };

/** A workflow of one task, advanced so that the task is queued. */
async function queueTask(plane: Pick<ContractPlane, 'client'>): Promise<void> {
  await plane.client.workflows.start({ agentId: 'a', title: 'Tidy', script: `return (await task({ title: 'Clean', prompt: 'Clean.', result: ${JSON.stringify(TEXT)} })).text;` });
  while ((await plane.client.advances.runNext({ workerId: 'w' })) !== null);
}

/**
 * Heartbeats of a settled claim: the lease that settled a job or task hears "finished by this lease" (its watcher
 * stops cleanly), an earlier claim's lease or a forged one hears only that it ended.
 */
export function describeSettledLeaseContract(planes: ContractPlanes): void {
  describe('heartbeats of a settled claim', () => {
    it('a job: the lease that settled it hears "finished by this lease"; an earlier claim\'s lease and a forged one hear it ended', async () => {
      const { client } = await planes.open();
      await client.jobs.start({ agentId: 'a', prompt: 'tidy up' });
      const first = (await client.work.claim({ workerId: 'w1' }))!;
      await client.work.release({ jobId: first.id, leaseToken: first.leaseToken });
      const second = (await client.work.claim({ workerId: 'w2' }))!;
      expect(second.id).toBe(first.id);
      await client.work.complete({ jobId: second.id, leaseToken: second.leaseToken, finalAnswer: 'done' });

      expect(await client.work.heartbeat({ jobId: second.id, leaseToken: second.leaseToken })).toEqual({ keepRunning: false, status: 'succeeded', finishedByThisLease: true });
      for (const leaseToken of [first.leaseToken, randomUUID()]) {
        const beat = await client.work.heartbeat({ jobId: second.id, leaseToken });
        expect(beat).toMatchObject({ keepRunning: false, status: 'succeeded' });
        expect(beat.finishedByThisLease).toBeUndefined();
      }
    });

    it('a job failed by its worker is finished by that lease too; one cancelled while it ran is not', async () => {
      const { client } = await planes.open();
      await client.jobs.start({ agentId: 'a', prompt: 'fails' });
      const failing = (await client.work.claim({ workerId: 'w1' }))!;
      await client.work.fail({ jobId: failing.id, leaseToken: failing.leaseToken, error: 'broke' });
      expect(await client.work.heartbeat({ jobId: failing.id, leaseToken: failing.leaseToken })).toEqual({ keepRunning: false, status: 'failed', finishedByThisLease: true });

      const cancelled = await client.jobs.start({ agentId: 'a', prompt: 'cancelled' });
      const running = (await client.work.claim({ workerId: 'w1' }))!;
      await client.jobs.cancel({ agentId: 'a', jobId: cancelled.id });
      // The worker's last word after the cancel does not settle it: the cancel did.
      await client.work.complete({ jobId: running.id, leaseToken: running.leaseToken, finalAnswer: 'partial' });
      const beat = await client.work.heartbeat({ jobId: running.id, leaseToken: running.leaseToken });
      expect(beat).toMatchObject({ keepRunning: false, status: 'cancelled' });
      expect(beat.finishedByThisLease).toBeUndefined();
    });

    it('a task: its own accepted submit_result is "finished by this lease", also for a heartbeat waiting when it lands; another lease is not', async () => {
      const { client } = await planes.open();
      await queueTask({ client });
      const first = (await client.tasks.claim({ workerId: 'w1' }))!;
      await client.tasks.release({ taskId: first.id, leaseToken: first.leaseToken });
      const second = (await client.tasks.claim({ workerId: 'w2' }))!;
      expect(second.id).toBe(first.id);

      // A long-polling heartbeat (as the lease watcher sends) is waiting when the result is stored.
      const waiting = client.tasks.heartbeat({ taskId: second.id, leaseToken: second.leaseToken, waitMs: 20_000 });
      expect(await client.tasks.submit({ taskId: second.id, leaseToken: second.leaseToken, result: { text: 'clean' } })).toMatchObject({ accepted: true });
      expect(await waiting).toEqual({ keepRunning: false, status: 'succeeded', finishedByThisLease: true });

      expect(await client.tasks.heartbeat({ taskId: second.id, leaseToken: second.leaseToken })).toEqual({ keepRunning: false, status: 'succeeded', finishedByThisLease: true });
      for (const leaseToken of [first.leaseToken, randomUUID()]) {
        const beat = await client.tasks.heartbeat({ taskId: second.id, leaseToken });
        expect(beat).toMatchObject({ keepRunning: false, status: 'succeeded' });
        expect(beat.finishedByThisLease).toBeUndefined();
      }
    });
  });
}
