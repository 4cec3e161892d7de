import type { ControlPlaneChangeEvent } from '@core/control-plane-client';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ControlPlane } from './create-control-plane.js';
import { controlPlanes } from './testing.js';
import { parseViewChange, viewChannel } from './view-changes.js';

/** Collects a subscription's events; `next(match)` waits for the first matching one not taken yet. */
async function watch(plane: ControlPlane) {
  const events: ControlPlaneChangeEvent[] = [];
  const waiting = new Set<() => void>();
  const stop = await plane.changes.subscribe((event) => {
    events.push(event);
    for (const wake of waiting) wake();
  });
  const taken = new Set<number>();
  return {
    events,
    stop,
    /** The first event matching `partial` not returned before (waits up to 10 s for it). */
    async next(partial: Record<string, unknown>): Promise<ControlPlaneChangeEvent> {
      const find = () => events.findIndex((event, index) => !taken.has(index) && Object.entries(partial).every(([key, value]) => (event as Record<string, unknown>)[key] === value));
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
        const index = find();
        if (index >= 0) {
          taken.add(index);
          return events[index]!;
        }
        await new Promise<void>((resolve) => {
          const wake = () => (waiting.delete(wake), clearTimeout(timer), resolve());
          const timer = setTimeout(wake, 200);
          waiting.add(wake);
        });
      }
      throw new Error(`no change like ${JSON.stringify(partial)}; heard ${JSON.stringify(events)}`);
    },
  };
}

describe.each(['postgres', 'pglite'] as const)('view changes on %s', (kind) => {
  const planes = controlPlanes(kind);
  afterEach(() => planes.cleanup());
  afterAll(() => planes.close());

  it('tells a job queued, claimed, its transcript growing and finished, but not its heartbeats', async () => {
    const plane = await planes.open();
    const watcher = await watch(plane);
    const job = await plane.client.jobs.start({ agentId: 'ops', prompt: 'p' });
    expect(await watcher.next({ kind: 'job', id: job.id })).toEqual({ kind: 'job', id: job.id, agentId: 'ops' });
    const claimed = await plane.client.work.claim({ workerId: 'w' });
    await watcher.next({ kind: 'job', id: job.id });
    const heard = watcher.events.length;
    await plane.client.work.heartbeat({ jobId: job.id, leaseToken: claimed!.leaseToken });
    await plane.client.transcripts.append({ jobId: job.id, leaseToken: claimed!.leaseToken, fromSequence: 0, entries: [{ time: new Date().toISOString(), event: { type: 'turn_start' } }] });
    // The heartbeat before the append told nothing: the next change heard is the transcript's.
    expect(await watcher.next({ kind: 'transcript' })).toMatchObject({ kind: 'transcript', agentId: 'ops', jobId: job.id });
    expect(watcher.events.slice(heard, heard + 1)).toMatchObject([{ kind: 'transcript' }]);
    await plane.client.work.complete({ jobId: job.id, leaseToken: claimed!.leaseToken, finalAnswer: 'done' });
    await watcher.next({ kind: 'job', id: job.id });
    watcher.stop();
  });

  it('tells workflows, their tasks, held calls and their decisions, and schedules, with their agent', async () => {
    const plane = await planes.open();
    const watcher = await watch(plane);
    const workflow = await plane.client.workflows.start({ agentId: 'research', title: 'One', script: "return (await task({ title: 't', prompt: 'p', result: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false } })).a;" });
    await watcher.next({ kind: 'workflow', id: workflow.id, agentId: 'research' });
    await plane.client.advances.runNext({ workerId: 'w' });
    expect(await watcher.next({ kind: 'task' })).toMatchObject({ agentId: 'research', workflowId: workflow.id });

    const job = await plane.client.jobs.start({ agentId: 'ops', prompt: 'p' });
    const claimed = await plane.client.work.claim({ workerId: 'w' });
    expect(claimed?.id).toBe(job.id);
    await plane.client.work.hold({ jobId: job.id, leaseToken: claimed!.leaseToken, runState: {}, calls: [{ callId: 'c1', toolName: 'command', label: 'rm x' }] });
    const held = await watcher.next({ kind: 'approval' });
    expect(held).toMatchObject({ agentId: 'ops', jobId: job.id });
    await plane.client.approvals.decide({ agentId: 'ops', approvalId: (held as { id: string }).id, approved: false, reason: 'no' });
    await watcher.next({ kind: 'approval', id: (held as { id: string }).id });

    const schedule = await plane.client.schedules.create({ agentId: 'ops', prompt: 'p', cron: '0 9 * * *' });
    await watcher.next({ kind: 'schedule', id: schedule.id });
    await plane.client.schedules.cancel({ agentId: 'ops', scheduleId: schedule.id });
    await watcher.next({ kind: 'schedule', id: schedule.id });
    watcher.stop();
  });

  it('stops telling a subscriber that stopped, and ignores notifications on its channel that are not changes', async () => {
    const plane = await planes.open();
    const first = await watch(plane);
    const second = await watch(plane);
    first.stop();
    await plane.driver.query('SELECT pg_notify($1, $2)', [viewChannel(plane.schema), 'not json']);
    await plane.driver.query('SELECT pg_notify($1, $2)', [viewChannel(plane.schema), JSON.stringify({ kind: 'brain', id: 'x', agentId: 'a' })]);
    const job = await plane.client.jobs.start({ agentId: 'ops', prompt: 'p' });
    await second.next({ kind: 'job', id: job.id });
    expect(second.events).toEqual([{ kind: 'job', id: job.id, agentId: 'ops' }]);
    expect(first.events).toEqual([]);
    second.stop();
  });

  it.runIf(kind === 'postgres')('says `gap` when its connection was lost and it listens again', async () => {
    const plane = await planes.open();
    const watcher = await watch(plane);
    await plane.driver.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query ILIKE $1 AND pid <> pg_backend_pid()`, [`%LISTEN%${viewChannel(plane.schema)}%`]);
    await watcher.next({ kind: 'gap' });
    const job = await plane.client.jobs.start({ agentId: 'ops', prompt: 'p' });
    await watcher.next({ kind: 'job', id: job.id });
    watcher.stop();
  });
});

describe('parseViewChange', () => {
  it('takes the changes migration 12 sends and nothing else', () => {
    expect(parseViewChange('{"kind":"task","id":"t","agentId":"a","workflowId":"w"}')).toEqual({ kind: 'task', id: 't', agentId: 'a', workflowId: 'w' });
    expect(parseViewChange('{"kind":"transcript","id":"t","agentId":"a","taskId":"k"}')).toEqual({ kind: 'transcript', id: 't', agentId: 'a', jobId: undefined, taskId: 'k' });
    expect(parseViewChange('{"kind":"task","id":"t","agentId":"a"}')).toBeUndefined();
    expect(parseViewChange('{"kind":"job","id":1,"agentId":"a"}')).toBeUndefined();
    expect(parseViewChange('{"kind":"__proto__","id":"x","agentId":"a"}')).toBeUndefined();
    expect(parseViewChange('null')).toBeUndefined();
    expect(parseViewChange('[')).toBeUndefined();
  });
});
