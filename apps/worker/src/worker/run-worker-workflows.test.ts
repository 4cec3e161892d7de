import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ControlPlane } from '@core/control-plane';
import type { WorkflowDetails } from '@core/control-plane-client';
import { controlPlanes } from '@core/control-plane/testing';
import type { TestModelServer } from '@core/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_WORKFLOW_SCRIPT, factsAbout } from '../__fixtures__/example-workflow.js';
import { until } from '../__fixtures__/until.js';
import { startTestWorker } from './__fixtures__/start-test-worker.js';
import { startWorkflowModel } from './__fixtures__/workflow-model.js';

const TEXT = { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } };

describe.each(['postgres', 'pglite'] as const)('runWorker with workflows on %s', (kind) => {
  const planes = controlPlanes(kind);
  let model: TestModelServer;
  let homes: string;
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    model = await startWorkflowModel({ slowMs: 30_000 });
    homes = await mkdtemp(path.join(tmpdir(), 'ankole-workflow-homes-'));
    // The first open starts PGlite and migrates (tens of seconds on a busy machine): not part of any one test.
    await planes.open();
  }, 120_000);
  afterAll(async () => {
    await model.close();
    await planes.close();
    await rm(homes, { recursive: true, force: true });
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    await planes.cleanup();
  });

  const start = (plane: ControlPlane, options: { concurrency?: number; shutdownGraceMs?: number } = {}) =>
    startTestWorker({ plane, baseURL: model.baseURL, homes, cleanups: stops, ...options });

  const finished = (plane: ControlPlane, workflowId: string) =>
    until(async () => {
      const workflow = await plane.client.workflows.get({ agentId: 'agent-w', workflowId });
      return workflow.status === 'running' ? undefined : workflow;
    }, `workflow ${workflowId} to finish`);

  it('runs the example workflow (fan-out, then a dependent task) to its result beside a background job, every task once, then the notice turn', async () => {
    const plane = await planes.open();
    const started = Date.now();
    const workflow = await plane.client.workflows.start({ agentId: 'agent-w', title: 'Research', script: EXAMPLE_WORKFLOW_SCRIPT, input: { topics: ['anemones', 'crabs', 'kelp'] }, notifyOnFinish: true });
    const job = await plane.client.jobs.start({ agentId: 'agent-w', prompt: 'tidy the notes' });
    const worker = start(plane, { concurrency: 2 });

    const done: WorkflowDetails = await finished(plane, workflow.id);
    const elapsed = Date.now() - started;
    expect(done).toMatchObject({ status: 'succeeded', result: { summary: '3 notes summarised', count: 3 }, taskCount: 4 });
    expect(done.tasks.map((task) => [task.title, task.status, task.attempts])).toEqual([
      ['Research anemones', 'succeeded', 1],
      ['Research crabs', 'succeeded', 1],
      ['Research kelp', 'succeeded', 1],
      ['Summarise', 'succeeded', 1],
    ]);
    expect(done.tasks[0]!.result).toEqual({ facts: factsAbout('anemones') });
    expect(done.log.map((line) => line.text)).toEqual(['collected 3 notes']);
    await until(async () => ((await plane.client.jobs.get({ agentId: 'agent-w', jobId: job.id })).status === 'succeeded' ? true : undefined), 'the job');
    // notifyOnFinish: the agent gets a turn with the outcome, run by the same worker.
    const notice = await until(async () => {
      const jobs = await plane.client.jobs.list({ agentId: 'agent-w', status: ['succeeded'] });
      return jobs.find((entry) => entry.title === 'Workflow succeeded: Research');
    }, 'the notice turn');
    expect(notice.finalAnswer).toMatch(/^done: Your workflow "Research" \(id \S+\) succeeded\. Its result:/);
    // The tasks succeeded in the control plane as their results were accepted, mid-turn; the worker counts each once
    // its turn has wound up (transcript closed, slot freed): wait for that, not for the stored status, before stopping.
    await until(async () => (worker.events.filter((event) => event.type === 'task.succeeded').length === 4 ? true : undefined), 'the four task turns to wind up');

    worker.stop();
    const summary = await worker.done;
    expect(summary.tasks).toEqual({ succeeded: 4, failed: 0, cancelled: 0, released: 0, lost: 0, held: 0 });
    expect(summary.succeeded).toBe(2);
    expect(summary.advances).toBe(done.replays);
    // Each task turn reached the model exactly once (one submission each).
    const submissions = worker.events.filter((event) => event.type === 'task.succeeded');
    expect(submissions).toHaveLength(4);
    console.log(`example workflow on ${kind}: ${elapsed} ms end to end, ${done.replays} replays`);
    // Seven model turns, five workflow replays (the first loads QuickJS) and a job: about 1 s alone, but 10 s and more
    // than 30 s were seen in whole-suite runs on a busy machine. A guard against hangs, not a speed check.
  }, 90_000);

  it("a task whose sub-agent never submits fails after two reminders, and the script's catch decides the result", async () => {
    const plane = await planes.open();
    const script = `try { await task({ title: 'Mute one', prompt: 'Say something.', result: ${JSON.stringify(TEXT)} }); return 'no'; } catch (error) { return { caught: error.message }; }`;
    const workflow = await plane.client.workflows.start({ agentId: 'agent-w', title: 'Mute', script });
    const worker = start(plane);
    const done = await finished(plane, workflow.id);
    expect(done.status).toBe('succeeded');
    expect((done.result as { caught: string }).caught).toContain('answered without submitting a result, even after 2 reminder(s)');
    expect(done.tasks[0]).toMatchObject({ status: 'failed', attempts: 1 });
    worker.stop();
    expect((await worker.done).tasks.failed).toBe(1);
  });

  it('runs due advances while every slot is busy: a workflow without tasks finishes beside a running task turn', async () => {
    const plane = await planes.open();
    const slow = await plane.client.workflows.start({
      agentId: 'agent-w',
      title: 'Busy',
      script: `return await task({ title: 'Slow busywork', prompt: 'Take your time.', result: ${JSON.stringify(TEXT)} });`,
    });
    const worker = start(plane, { concurrency: 1, shutdownGraceMs: 0 });
    await until(async () => (worker.events.some((event) => event.type === 'task.claimed') ? true : undefined), 'the task turn to take the only slot');
    const quick = await plane.client.workflows.start({ agentId: 'agent-w', title: 'Quick', script: "log('no tasks'); return 42;" });
    expect(await finished(plane, quick.id)).toMatchObject({ status: 'succeeded', result: 42 });
    expect((await plane.client.workflows.get({ agentId: 'agent-w', workflowId: slow.id })).tasks[0]!.status).toBe('running');
    worker.stop();
    expect((await worker.done).tasks.released).toBe(1);
  });

  it('cancelling a workflow stops its running task turn; shutdown hands a running task back to the queue', async () => {
    const plane = await planes.open();
    const script = `return await task({ title: 'Slow work', prompt: 'Take your time.', result: ${JSON.stringify(TEXT)} });`;
    const cancelled = await plane.client.workflows.start({ agentId: 'agent-w', title: 'Cancelled', script });
    const worker = start(plane, { concurrency: 1, shutdownGraceMs: 0 });
    await until(async () => (worker.events.some((event) => event.type === 'task.claimed') ? true : undefined), 'the task turn to start');
    await plane.client.workflows.cancel({ agentId: 'agent-w', workflowId: cancelled.id });
    await until(async () => (worker.events.some((event) => event.type === 'task.cancelled') ? true : undefined), 'the task turn to stop');
    expect((await plane.client.workflows.get({ agentId: 'agent-w', workflowId: cancelled.id })).tasks[0]).toMatchObject({ status: 'cancelled', result: null });

    const handedBack = await plane.client.workflows.start({ agentId: 'agent-w', title: 'Handed back', script });
    await until(async () => (worker.events.filter((event) => event.type === 'task.claimed').length === 2 ? true : undefined), 'the second task turn');
    worker.stop();
    const summary = await worker.done;
    expect(summary.tasks).toMatchObject({ cancelled: 1, released: 1 });
    expect((await plane.client.workflows.get({ agentId: 'agent-w', workflowId: handedBack.id })).tasks[0]).toMatchObject({ status: 'queued', result: null });
  });
});
