import { describe, expect, it } from 'vitest';
import type { ContractPlane, ContractPlanes } from './contract-plane.js';

const TEXT = { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } };

async function advanceAll(plane: Pick<ContractPlane, 'client'>): Promise<void> {
  while ((await plane.client.advances.runNext({ workerId: 'w' })) !== null);
}

const runState = { version: 1, items: [], pending: [{ callId: 'c1' }, { callId: 'c2' }] };
const calls = [
  { callId: 'c1', toolName: 'command', label: 'Running `rm a.txt`', params: { command: 'rm a.txt' }, isDestructive: true },
  { callId: 'c2', toolName: 'command', label: 'Running `rm b.txt`', params: { command: 'rm b.txt' }, isDestructive: true },
];

/** Approvals: jobs and tasks held for a decision (the worker freed), queued again once decided; the approved-call journal. */
export function describeApprovalContract(planes: ContractPlanes): void {
  describe('approvals', () => {
    it('holds a job (freeing the worker), queues it again once every call is decided, exactly once, and hands the state back', async () => {
      const { client } = await planes.open();
      const job = await client.jobs.start({ agentId: 'a', prompt: 'tidy up' });
      const claimed = (await client.work.claim({ workerId: 'w1' }))!;
      expect(claimed.resume).toBeUndefined();
      const held = await client.work.hold({ jobId: job.id, leaseToken: claimed.leaseToken, runState, calls });
      expect(held).toMatchObject({ status: 'awaiting_approval', workerId: null });
      expect(await client.work.claim({ workerId: 'w2' })).toBeNull();

      const pending = await client.approvals.list({ agentId: 'a' });
      expect(pending.map((approval) => [approval.callId, approval.status, approval.jobTitle])).toEqual(
        expect.arrayContaining([
          ['c1', 'pending', 'tidy up'],
          ['c2', 'pending', 'tidy up'],
        ]),
      );
      expect(await client.approvals.list({ agentId: 'other' })).toEqual([]);
      const first = pending.find((approval) => approval.callId === 'c1')!;
      const second = pending.find((approval) => approval.callId === 'c2')!;
      expect(await client.approvals.get({ agentId: 'a', approvalId: first.id })).toMatchObject({ params: { command: 'rm a.txt' }, isDestructive: true });

      await client.approvals.decide({ agentId: 'a', approvalId: first.id, approved: true });
      expect((await client.jobs.get({ agentId: 'a', jobId: job.id })).status).toBe('awaiting_approval');
      expect(await client.work.claim({ workerId: 'w2' })).toBeNull();
      const denied = await client.approvals.decide({ agentId: 'a', approvalId: second.id, approved: false, reason: 'keep b' });
      expect(denied).toMatchObject({ status: 'denied', reason: 'keep b' });
      // The same decision again changes nothing; another one is refused.
      expect(await client.approvals.decide({ agentId: 'a', approvalId: second.id, approved: false, reason: 'keep b' })).toMatchObject({ status: 'denied' });
      await expect(client.approvals.decide({ agentId: 'a', approvalId: second.id, approved: true })).rejects.toMatchObject({ code: 'approval_already_decided' });
      expect((await client.jobs.get({ agentId: 'a', jobId: job.id })).status).toBe('queued');

      const resumed = (await client.work.claim({ workerId: 'w2' }))!;
      expect(resumed.id).toBe(job.id);
      expect(resumed.resume).toEqual({ runState, decisions: { c1: { approved: true }, c2: { approved: false, reason: 'keep b' } } });
      expect(await client.work.claim({ workerId: 'w3' })).toBeNull();
      expect(await client.work.complete({ jobId: job.id, leaseToken: resumed.leaseToken, finalAnswer: 'done' })).toMatchObject({ status: 'succeeded' });
    });

    it('cancels a paused job and its pending approvals', async () => {
      const { client } = await planes.open();
      const job = await client.jobs.start({ agentId: 'a', prompt: 'tidy up' });
      const claimed = (await client.work.claim({ workerId: 'w1' }))!;
      await client.work.hold({ jobId: job.id, leaseToken: claimed.leaseToken, runState, calls: calls.slice(0, 1) });
      expect(await client.jobs.cancel({ agentId: 'a', jobId: job.id })).toMatchObject({ status: 'cancelled' });
      const [approval] = await client.approvals.list({ agentId: 'a', status: ['cancelled'] });
      await expect(client.approvals.decide({ agentId: 'a', approvalId: approval!.id, approved: true })).rejects.toMatchObject({ code: 'approval_already_decided' });
      expect(await client.work.claim({ workerId: 'w2' })).toBeNull();
    });

    it('journals an approved call: started once per lease, never by another lease, its output handed to the next resume', async () => {
      const { client } = await planes.open();
      const job = await client.jobs.start({ agentId: 'a', prompt: 'tidy up' });
      const claimed = (await client.work.claim({ workerId: 'w1' }))!;
      await client.work.hold({ jobId: job.id, leaseToken: claimed.leaseToken, runState, calls });
      const [first, second] = (await client.approvals.list({ agentId: 'a' })).sort((left, right) => left.callId.localeCompare(right.callId));
      await client.approvals.decide({ agentId: 'a', approvalId: first!.id, approved: true });
      await client.approvals.decide({ agentId: 'a', approvalId: second!.id, approved: true });
      const resumed = (await client.work.claim({ workerId: 'w2' }))!;
      const ref = { jobId: job.id, leaseToken: resumed.leaseToken };
      // Only the lease holder starts an approved call; the same request again (a lost answer) is answered the same.
      expect(await client.work.startApprovedCall({ ...ref, leaseToken: claimed.leaseToken, callId: 'c1' })).toEqual({ run: false });
      expect(await client.work.startApprovedCall({ ...ref, callId: 'c1' })).toEqual({ run: true });
      expect(await client.work.startApprovedCall({ ...ref, callId: 'c1' })).toEqual({ run: true });
      expect(await client.work.startApprovedCall({ ...ref, callId: 'c2' })).toEqual({ run: true });
      expect(await client.work.startApprovedCall({ ...ref, callId: 'unknown' })).toEqual({ run: false });
      expect(await client.work.finishApprovedCall({ ...ref, callId: 'c1', output: { content: 'removed a.txt' } })).toEqual({ recorded: true });
      expect(await client.work.finishApprovedCall({ ...ref, callId: 'c1', output: { content: 'again' } })).toEqual({ recorded: false });

      // The worker dies with c2 running: the next claim sees c1's output and c2 started without one, and cannot start c2 again.
      await client.work.release(ref);
      const again = (await client.work.claim({ workerId: 'w3' }))!;
      expect(again.resume?.decisions).toEqual({ c1: { approved: true, started: true, output: { content: 'removed a.txt' } }, c2: { approved: true, started: true } });
      expect(await client.work.startApprovedCall({ jobId: job.id, leaseToken: again.leaseToken, callId: 'c2' })).toEqual({ run: false });
    });

    it("holds a workflow task: the task waits awaiting approval, its workflow waits, a decision queues it again with its state", async () => {
      const plane = await planes.open();
      const { client } = plane;
      const workflow = await client.workflows.start({ agentId: 'a', title: 'Tidy', script: `return (await task({ title: 'Clean', prompt: 'Clean.', result: ${JSON.stringify(TEXT)} })).text;` });
      await advanceAll(plane);
      const task = (await client.tasks.claim({ workerId: 'w1' }))!;
      expect(task.resume).toBeUndefined();
      const held = await client.tasks.hold({ taskId: task.id, leaseToken: task.leaseToken, runState, calls: calls.slice(0, 1) });
      expect(held).toMatchObject({ status: 'awaiting_approval', workerId: null });
      expect(await client.tasks.claim({ workerId: 'w2' })).toBeNull();
      const [approval] = await client.approvals.list({ agentId: 'a' });
      expect(approval).toMatchObject({ jobId: null, taskId: task.id, workflowId: workflow.id, jobTitle: 'Tidy: Clean', callId: 'c1' });
      expect((await client.workflows.get({ agentId: 'a', workflowId: workflow.id })).tasks[0]).toMatchObject({ status: 'awaiting_approval' });

      await client.approvals.decide({ agentId: 'a', approvalId: approval!.id, approved: true });
      const resumed = (await client.tasks.claim({ workerId: 'w2' }))!;
      expect(resumed).toMatchObject({ id: task.id, resume: { runState, decisions: { c1: { approved: true } } } });
      expect(await client.tasks.startApprovedCall({ taskId: task.id, leaseToken: resumed.leaseToken, callId: 'c1' })).toEqual({ run: true });
      expect(await client.tasks.finishApprovedCall({ taskId: task.id, leaseToken: resumed.leaseToken, callId: 'c1', output: { content: 'ok' } })).toEqual({ recorded: true });
      await client.tasks.submit({ taskId: task.id, leaseToken: resumed.leaseToken, result: { text: 'clean' } });
      await advanceAll(plane);
      expect(await client.workflows.get({ agentId: 'a', workflowId: workflow.id })).toMatchObject({ status: 'succeeded', result: 'clean' });
    });

    it('cancels the pending approvals of a paused task with its workflow', async () => {
      const plane = await planes.open();
      const { client } = plane;
      const workflow = await client.workflows.start({ agentId: 'a', title: 'Tidy', script: `return await task({ title: 'Clean', prompt: 'Clean.', result: ${JSON.stringify(TEXT)} });` });
      await advanceAll(plane);
      const task = (await client.tasks.claim({ workerId: 'w1' }))!;
      await client.tasks.hold({ taskId: task.id, leaseToken: task.leaseToken, runState, calls: calls.slice(0, 1) });
      await client.workflows.cancel({ agentId: 'a', workflowId: workflow.id });
      const [approval] = await client.approvals.list({ agentId: 'a', status: ['cancelled'] });
      await expect(client.approvals.decide({ agentId: 'a', approvalId: approval!.id, approved: true })).rejects.toMatchObject({
        code: 'approval_already_decided',
        message: expect.stringContaining('its task was cancelled') as unknown,
      });
      expect((await client.workflows.get({ agentId: 'a', workflowId: workflow.id })).tasks[0]).toMatchObject({ status: 'cancelled' });
    });
  });
}
