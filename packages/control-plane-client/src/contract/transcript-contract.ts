import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../index.js';
import type { ContractPlanes } from './contract-plane.js';

const at = (second: number) => new Date(Date.UTC(2026, 11, 1, 8, 0, second)).toISOString();
const entry = (second: number, event: TranscriptEntry['event']): TranscriptEntry => ({ time: at(second), event });
const TEXT = { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } };

/** Transcripts: a claim's events kept in order, once each, for the job's or task's agent only. */
export function describeTranscriptContract(planes: ContractPlanes): void {
  describe('transcripts', () => {
    it("keeps a job's events per claim, in order, once per event, for the job's agent only", async () => {
      const { client } = await planes.open();
      const job = await client.jobs.start({ agentId: 'a', prompt: 'tidy up' });
      const claimed = (await client.work.claim({ workerId: 'w1' }))!;
      const lease = { jobId: job.id, leaseToken: claimed.leaseToken };
      expect(await client.transcripts.append({ ...lease, fromSequence: 0, entries: [] })).toMatchObject({ accepted: true, attempt: 1, stored: 0 });
      const first = [
        entry(0, { type: 'turn.started', tools: 3 }),
        entry(1, { type: 'activity.started', step: 1, callId: 'c1', toolName: 'command', label: 'Running `ls`', arguments: '{"command":"ls"}' }),
      ];
      expect(await client.transcripts.append({ ...lease, fromSequence: 0, entries: first })).toMatchObject({ stored: 2 });
      // The same batch again (a retry after a lost answer) is kept once; the next one goes on from there.
      expect(await client.transcripts.append({ ...lease, fromSequence: 0, entries: first })).toMatchObject({ accepted: true, stored: 0 });
      await client.work.complete({ ...lease, finalAnswer: 'done' });
      // The last events may come after the job was settled (the worker flushes them).
      const last = [entry(2, { type: 'activity.completed', step: 1, callId: 'c1', output: 'a.txt' }), entry(3, { type: 'turn.completed', reason: 'completed' })];
      expect(await client.transcripts.append({ ...lease, fromSequence: 2, entries: last })).toMatchObject({ stored: 2 });

      const transcript = await client.transcripts.get({ agentId: 'a', jobId: job.id });
      expect(transcript).toMatchObject({ agentId: 'a', jobId: job.id, taskId: null });
      expect(transcript.attempts).toHaveLength(1);
      expect(transcript.attempts[0]).toMatchObject({ attempt: 1, workerId: 'w1', received: 4, droppedEvents: 0, truncatedEvents: 0 });
      expect(transcript.attempts[0]!.entries).toEqual([...first, ...last]);
      await expect(client.transcripts.get({ agentId: 'b', jobId: job.id })).rejects.toMatchObject({ code: 'job_not_found' });
    });

    it('refuses a lease token that never held the job, and keeps each claim apart', async () => {
      const plane = await planes.open({ leaseSeconds: 1 });
      const { client } = plane;
      const job = await client.jobs.start({ agentId: 'a', prompt: 'tidy up' });
      expect(await client.transcripts.append({ jobId: job.id, leaseToken: '00000000-0000-4000-8000-000000000000', fromSequence: 0, entries: [entry(0, { type: 'turn.started' })] })).toEqual({
        accepted: false,
        attempt: null,
        stored: 0,
        dropped: 0,
        truncated: 0,
      });
      const firstClaim = (await client.work.claim({ workerId: 'w1' }))!;
      await client.transcripts.append({ jobId: job.id, leaseToken: firstClaim.leaseToken, fromSequence: 0, entries: [entry(0, { type: 'turn.started' })] });
      await client.work.release({ jobId: job.id, leaseToken: firstClaim.leaseToken });
      const secondClaim = (await client.work.claim({ workerId: 'w2' }))!;
      await client.transcripts.append({ jobId: job.id, leaseToken: secondClaim.leaseToken, fromSequence: 0, entries: [entry(5, { type: 'turn.started' })] });
      // The first claim's worker can still finish its own transcript, never the second one's.
      await client.transcripts.append({ jobId: job.id, leaseToken: firstClaim.leaseToken, fromSequence: 1, entries: [entry(1, { type: 'turn.completed', reason: 'aborted' })] });
      const transcript = await client.transcripts.get({ agentId: 'a', jobId: job.id });
      expect(transcript.attempts.map((attempt) => [attempt.attempt, attempt.workerId, attempt.entries.map((kept) => kept.event.type)])).toEqual([
        [1, 'w1', ['turn.started', 'turn.completed']],
        [2, 'w2', ['turn.started']],
      ]);
      await expect(client.transcripts.append({ jobId: '00000000-0000-4000-8000-000000000001', leaseToken: secondClaim.leaseToken, fromSequence: 0, entries: [] })).rejects.toMatchObject({
        code: 'job_not_found',
      });
    });

    it('cuts long strings and leaves out events past the size bound, keeping turn.completed, and says so', async () => {
      const { client } = await planes.open({ transcriptLimits: { maxBytes: 1500, maxStringChars: 100 } });
      const job = await client.jobs.start({ agentId: 'a', prompt: 'read everything' });
      const claimed = (await client.work.claim({ workerId: 'w1' }))!;
      const lease = { jobId: job.id, leaseToken: claimed.leaseToken };
      const long = entry(1, { type: 'activity.completed', step: 1, callId: 'c1', output: 'x'.repeat(5000) });
      const many = Array.from({ length: 30 }, (_, index) => entry(2, { type: 'activity.started', step: 2, callId: `d${index}`, label: `Reading file ${index}` }));
      const result = await client.transcripts.append({ ...lease, fromSequence: 0, entries: [long, ...many, entry(3, { type: 'turn.completed', reason: 'completed', text: 'y'.repeat(500) })] });
      expect(result.truncated).toBe(2);
      expect(result.dropped).toBeGreaterThan(0);
      const [attempt] = (await client.transcripts.get({ agentId: 'a', jobId: job.id })).attempts;
      expect(attempt!.entries[0]!.event.output).toBe(`${'x'.repeat(100)}… [4900 more characters left out]`);
      expect(attempt!.entries.at(-1)!.event).toMatchObject({ type: 'turn.completed', text: `${'y'.repeat(100)}… [400 more characters left out]` });
      expect(attempt).toMatchObject({ received: 32, droppedEvents: result.dropped, truncatedEvents: 2 });
      expect(attempt!.entries).toHaveLength(32 - result.dropped);
      expect(attempt!.bytes).toBeLessThanOrEqual(1500 + 400);
    });

    it("keeps a workflow task's transcript, even for the events after its result was submitted", async () => {
      const { client } = await planes.open();
      await client.workflows.start({ agentId: 'a', title: 'One', script: `return (await task({ title: 'one', prompt: 'Do one.', result: ${JSON.stringify(TEXT)} })).text;` });
      while ((await client.advances.runNext({ workerId: 'w' })) !== null);
      const task = (await client.tasks.claim({ workerId: 'w' }))!;
      const lease = { taskId: task.id, leaseToken: task.leaseToken };
      await client.transcripts.append({ ...lease, fromSequence: 0, entries: [entry(0, { type: 'turn.started' })] });
      await client.tasks.submit({ ...lease, result: { text: 'done' } });
      await client.transcripts.append({ ...lease, fromSequence: 1, entries: [entry(1, { type: 'turn.completed', reason: 'terminated' })] });
      const transcript = await client.transcripts.get({ agentId: 'a', taskId: task.id });
      expect(transcript).toMatchObject({ jobId: null, taskId: task.id });
      expect(transcript.attempts[0]!.entries.map((kept) => kept.event.type)).toEqual(['turn.started', 'turn.completed']);
      await expect(client.transcripts.get({ agentId: 'a', jobId: task.id, taskId: task.id })).rejects.toMatchObject({ code: 'input_invalid' });
    });
  });
}
