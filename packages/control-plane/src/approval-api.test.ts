import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { controlPlanes } from './testing.js';
import { clientTransport, viaTransport } from './__fixtures__/client-transport.js';

const runState = { version: 1, items: [], pending: [{ callId: 'c1' }, { callId: 'c2' }] };
const calls = [
  { callId: 'c1', toolName: 'command', label: 'Running `rm a.txt`', params: { command: 'rm a.txt' }, isDestructive: true },
  { callId: 'c2', toolName: 'command', label: 'Running `rm b.txt`', params: { command: 'rm b.txt' }, isDestructive: true },
];

describe.each(['postgres', 'pglite'] as const)(`approvals on %s (${clientTransport.name})`, (kind) => {
  const planes = viaTransport(controlPlanes(kind));
  afterEach(() => planes.cleanup());
  afterAll(() => planes.close());

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
});
