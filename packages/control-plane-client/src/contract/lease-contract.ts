import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ControlPlaneConflictError, RPC_METHODS, type RpcMethodName } from '../index.js';
import type { ContractPlane, ContractPlanes } from './contract-plane.js';

/** These calls run many statements (hundreds of cases, or whole workflows): on a loaded machine PGlite needs time. */
const SLOW_MS = 240_000;

const TEXT = { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } };
const runState = { version: 1, items: [], pending: [{ callId: 'c1' }] };
const calls = [{ callId: 'c1', toolName: 'command', label: 'Running `rm -rf build`', params: { command: 'rm -rf build' }, isDestructive: true }];
const calls2 = [...calls, { callId: 'c2', toolName: 'command', label: 'Running `rm -rf dist`', params: { command: 'rm -rf dist' }, isDestructive: true }];

/**
 * The calls whose input carries a lease token but that answer a wrong lease without a 409, by design: a heartbeat
 * says `keepRunning: false`, a journal start `run: false`, a transcript batch `accepted: false` (each tells the worker
 * it lost the claim), and a claim's lease is the one it hands out.
 */
const ANSWERED_WITHOUT_409 = new Set<RpcMethodName>(['work.heartbeat', 'tasks.heartbeat', 'work.startApprovedCall', 'tasks.startApprovedCall', 'transcripts.append']);

async function advanceAll(plane: Pick<ContractPlane, 'client'>): Promise<void> {
  while ((await plane.client.advances.runNext({ workerId: 'w' })) !== null);
}

/** A running job and a running workflow task, both claimed by worker w1. */
async function claimBoth(plane: ContractPlane) {
  const { client } = plane;
  const job = await client.jobs.start({ agentId: 'a', prompt: 'tidy up' });
  const claimedJob = (await client.work.claim({ workerId: 'w1' }))!;
  const workflow = await client.workflows.start({ agentId: 'a', title: 'Tidy', script: `return (await task({ title: 'Clean', prompt: 'Clean.', result: ${JSON.stringify(TEXT)} })).text;` });
  await advanceAll(plane);
  const claimedTask = (await client.tasks.claim({ workerId: 'w1' }))!;
  return { job, claimedJob, workflow, claimedTask };
}

/** Writes under a lease: a forged, stale or taken-over lease is refused (lease_lost) and changes nothing; a repeat answers as stored. */
export function describeLeaseContract(planes: ContractPlanes): void {
  describe('writes under a lease', () => {
    it('refuses every write under a lease with 409 lease_lost for a forged lease, and changes nothing', async () => {
      const plane = await planes.open();
      const { client } = plane;
      const { job, claimedJob, workflow, claimedTask } = await claimBoth(plane);
      for (const leaseToken of [randomUUID(), 'not-a-lease']) {
        const jobRef = { jobId: job.id, leaseToken };
        const taskRef = { taskId: claimedTask.id, leaseToken };
        const writes: Partial<Record<RpcMethodName, () => Promise<unknown>>> = {
          'work.complete': () => client.work.complete({ ...jobRef, finalAnswer: 'forged' }),
          'work.fail': () => client.work.fail({ ...jobRef, error: 'forged' }),
          'work.release': () => client.work.release(jobRef),
          'work.hold': () => client.work.hold({ ...jobRef, runState, calls }),
          'work.finishApprovedCall': () => client.work.finishApprovedCall({ ...jobRef, callId: 'c1', output: { content: 'forged' } }),
          'tasks.submit': () => client.tasks.submit({ ...taskRef, result: { text: 'forged' } }),
          'tasks.fail': () => client.tasks.fail({ ...taskRef, error: 'forged' }),
          'tasks.release': () => client.tasks.release(taskRef),
          'tasks.hold': () => client.tasks.hold({ ...taskRef, runState, calls }),
          'tasks.finishApprovedCall': () => client.tasks.finishApprovedCall({ ...taskRef, callId: 'c1', output: { content: 'forged' } }),
        };
        // Every call of the RPC table whose input names a lease is here, or answers a wrong lease in its own way.
        const leased = (Object.keys(RPC_METHODS) as RpcMethodName[]).filter((name) => {
          const input = RPC_METHODS[name].input;
          return input instanceof z.ZodObject && 'leaseToken' in input.shape;
        });
        expect(leased.filter((name) => !ANSWERED_WITHOUT_409.has(name)).sort()).toEqual(Object.keys(writes).sort());
        for (const [name, write] of Object.entries(writes)) {
          // The journal writes concern a call that is not approved here: the forged-journal test covers their 409.
          if (name.endsWith('finishApprovedCall')) continue;
          const refused = await write().then(
            () => undefined,
            (error: unknown) => error,
          );
          expect(refused, name).toBeInstanceOf(ControlPlaneConflictError);
          expect(refused, name).toMatchObject({ code: 'lease_lost', message: expect.stringMatching(/does not hold (job|task) "(tidy up|Clean)"/) as unknown });
        }
      }
      // The real holder still holds both, with nothing stored by the forger.
      expect(await client.work.heartbeat({ jobId: job.id, leaseToken: claimedJob.leaseToken })).toEqual({ keepRunning: true, status: 'running' });
      expect(await client.tasks.heartbeat({ taskId: claimedTask.id, leaseToken: claimedTask.leaseToken })).toEqual({ keepRunning: true, status: 'running' });
      expect(await client.jobs.get({ agentId: 'a', jobId: job.id })).toMatchObject({ status: 'running', finalAnswer: null, error: null, workerId: 'w1' });
      expect(await client.approvals.list({ agentId: 'a', status: ['pending', 'approved', 'denied', 'cancelled'] })).toEqual([]);
      expect((await client.workflows.get({ agentId: 'a', workflowId: workflow.id })).tasks[0]).toMatchObject({ status: 'running', result: null });
      expect(await client.work.complete({ jobId: job.id, leaseToken: claimedJob.leaseToken, finalAnswer: 'done' })).toMatchObject({ status: 'succeeded' });
      expect(await client.tasks.submit({ taskId: claimedTask.id, leaseToken: claimedTask.leaseToken, result: { text: 'clean' } })).toMatchObject({ accepted: true });
    }, SLOW_MS);

    it('answers the holder repeating a write with the record as stored, and a lease another worker took over with lease_lost', async () => {
      const plane = await planes.open();
      const { client } = plane;
      const { job, claimedJob, claimedTask } = await claimBoth(plane);
      const jobRef = { jobId: job.id, leaseToken: claimedJob.leaseToken };
      const taskRef = { taskId: claimedTask.id, leaseToken: claimedTask.leaseToken };

      // Released (its answer lost), asked again: the same record; then another worker claims it.
      expect(await client.work.release(jobRef)).toMatchObject({ status: 'queued' });
      expect(await client.work.release(jobRef)).toMatchObject({ status: 'queued' });
      expect(await client.tasks.release(taskRef)).toMatchObject({ status: 'queued' });
      expect(await client.tasks.release(taskRef)).toMatchObject({ status: 'queued' });
      const takenJob = (await client.work.claim({ workerId: 'w2' }))!;
      const takenTask = (await client.tasks.claim({ workerId: 'w2' }))!;
      expect([takenJob.id, takenTask.id]).toEqual([job.id, claimedTask.id]);

      // The first worker's lease is stale now: every write is refused, the new holder's goes through.
      await expect(client.work.complete({ ...jobRef, finalAnswer: 'stale' })).rejects.toMatchObject({ code: 'lease_lost', message: expect.stringContaining('taken over by another worker') as unknown });
      await expect(client.work.hold({ ...jobRef, runState, calls })).rejects.toMatchObject({ code: 'lease_lost' });
      await expect(client.tasks.fail({ ...taskRef, error: 'stale' })).rejects.toMatchObject({ code: 'lease_lost' });
      await expect(client.tasks.hold({ ...taskRef, runState, calls })).rejects.toMatchObject({ code: 'lease_lost' });
      const fresh = { jobId: job.id, leaseToken: takenJob.leaseToken };
      expect(await client.work.complete({ ...fresh, finalAnswer: 'first' })).toMatchObject({ status: 'succeeded', finalAnswer: 'first', workerId: 'w2' });
      expect(await client.work.complete({ ...fresh, finalAnswer: 'second' })).toMatchObject({ status: 'succeeded', finalAnswer: 'first' });
      expect(await client.work.fail({ ...fresh, error: 'late' })).toMatchObject({ status: 'succeeded', error: null });
      const freshTask = { taskId: claimedTask.id, leaseToken: takenTask.leaseToken };
      expect(await client.tasks.fail({ ...freshTask, error: 'gave up' })).toMatchObject({ status: 'failed', error: 'gave up' });
      expect(await client.tasks.fail({ ...freshTask, error: 'again' })).toMatchObject({ status: 'failed', error: 'gave up' });
      await expect(client.tasks.submit({ ...freshTask, result: { text: 'late' } })).rejects.toMatchObject({ code: 'task_not_running' });
    }, SLOW_MS);

    it('journals an approved call only under the lease it started with: a forged or later lease cannot record its output', async () => {
      const plane = await planes.open();
      const { client } = plane;
      const job = await client.jobs.start({ agentId: 'a', prompt: 'tidy up' });
      const first = (await client.work.claim({ workerId: 'w1' }))!;
      await client.work.hold({ jobId: job.id, leaseToken: first.leaseToken, runState, calls: calls2 });
      for (const approval of await client.approvals.list({ agentId: 'a' })) await client.approvals.decide({ agentId: 'a', approvalId: approval.id, approved: true });
      const holder = (await client.work.claim({ workerId: 'w2' }))!;
      const ref = { jobId: job.id, leaseToken: holder.leaseToken };
      expect(await client.work.startApprovedCall({ ...ref, callId: 'c1' })).toEqual({ run: true });
      expect(await client.work.startApprovedCall({ ...ref, callId: 'c2' })).toEqual({ run: true });

      // Another worker (a random lease, the job's previous lease) tries to record its own output for the holder's call.
      for (const leaseToken of [randomUUID(), first.leaseToken, 'not-a-lease']) {
        await expect(client.work.finishApprovedCall({ jobId: job.id, leaseToken, callId: 'c1', output: { content: 'deleted nothing' } })).rejects.toMatchObject({
          code: 'lease_lost',
        });
      }
      expect(await client.work.finishApprovedCall({ ...ref, callId: 'c1', output: { content: 'removed build/' } })).toEqual({ recorded: true });
      expect(await client.work.finishApprovedCall({ ...ref, callId: 'c1', output: { content: 'again' } })).toEqual({ recorded: false });
      expect(await client.work.finishApprovedCall({ ...ref, callId: 'unknown', output: { content: 'x' } })).toEqual({ recorded: false });

      // The holder loses the job with c2 running: the next holder cannot record c2 (it never ran it); the one that ran it still can.
      await client.work.release(ref);
      const next = (await client.work.claim({ workerId: 'w3' }))!;
      await expect(client.work.finishApprovedCall({ jobId: job.id, leaseToken: next.leaseToken, callId: 'c2', output: { content: 'not mine' } })).rejects.toMatchObject({
        code: 'lease_lost',
      });
      expect(await client.work.finishApprovedCall({ ...ref, callId: 'c2', output: { content: 'removed dist/' } })).toEqual({ recorded: true });
      await client.work.release({ jobId: job.id, leaseToken: next.leaseToken });
      const resumed = (await client.work.claim({ workerId: 'w4' }))!;
      expect(resumed.resume?.decisions).toEqual({
        c1: { approved: true, started: true, output: { content: 'removed build/' } },
        c2: { approved: true, started: true, output: { content: 'removed dist/' } },
      });
    }, SLOW_MS);

    it("refuses a forged output for a task's approved call, and keeps the holder's", async () => {
      const plane = await planes.open();
      const { client } = plane;
      await client.workflows.start({ agentId: 'a', title: 'Tidy', script: `return (await task({ title: 'Clean', prompt: 'Clean.', result: ${JSON.stringify(TEXT)} })).text;` });
      await advanceAll(plane);
      const task = (await client.tasks.claim({ workerId: 'w1' }))!;
      await client.tasks.hold({ taskId: task.id, leaseToken: task.leaseToken, runState, calls });
      const [approval] = await client.approvals.list({ agentId: 'a' });
      await client.approvals.decide({ agentId: 'a', approvalId: approval!.id, approved: true });
      const holder = (await client.tasks.claim({ workerId: 'w2' }))!;
      const ref = { taskId: task.id, leaseToken: holder.leaseToken };
      expect(await client.tasks.startApprovedCall({ ...ref, callId: 'c1' })).toEqual({ run: true });
      for (const leaseToken of [randomUUID(), task.leaseToken]) {
        await expect(client.tasks.finishApprovedCall({ taskId: task.id, leaseToken, callId: 'c1', output: { content: 'forged' } })).rejects.toMatchObject({
          code: 'lease_lost',
        });
      }
      expect(await client.tasks.finishApprovedCall({ ...ref, callId: 'c1', output: { content: 'cleaned' } })).toEqual({ recorded: true });
      await client.tasks.release(ref);
      expect((await client.tasks.claim({ workerId: 'w3' }))!.resume?.decisions).toEqual({ c1: { approved: true, started: true, output: { content: 'cleaned' } } });
    }, SLOW_MS);
  });
}
