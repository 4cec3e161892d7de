import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createControlPlane, createPGliteDriver, createPostgresDriver, type ControlPlane, type SqlDriver } from '@core/control-plane';
import { defineWorkerTool, type AgentToolResult, type AnyWorkerAgentTool } from '@core/runtime';
import { lastUserText, type TestModelServer } from '@core/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { until as waitUntil } from '../__fixtures__/until.js';
import { startTestWorker } from './__fixtures__/start-test-worker.js';
import { startWorkerModel } from './__fixtures__/worker-model.js';
import { testDatabaseUrl } from '@core/control-plane/testing';

const DATABASE_URL = testDatabaseUrl();

describe.each(['postgres', 'pglite'] as const)('runWorker on %s', (kind) => {
  let pglite: SqlDriver | undefined;
  let model: TestModelServer;
  let homes: string;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    if (kind === 'pglite') pglite = await createPGliteDriver();
    model = await startWorkerModel({ hangMs: 1_500 });
    homes = await mkdtemp(path.join(tmpdir(), 'ankole-worker-homes-'));
  }, 60_000);
  afterAll(async () => {
    await model.close();
    await pglite?.close();
    await rm(homes, { recursive: true, force: true });
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(): Promise<ControlPlane> {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const plane = await createControlPlane({ ...(pglite === undefined ? { databaseUrl: DATABASE_URL } : { driver: pglite }), schema, background: false });
    cleanups.push(async () => {
      await plane.close();
      const drop = `DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`;
      const driver = pglite ?? createPostgresDriver({ connectionString: DATABASE_URL });
      await driver.exec(drop);
      if (pglite === undefined) await driver.close();
    });
    return plane;
  }

  const start = (plane: ControlPlane, options: { concurrency?: number; shutdownGraceMs?: number; extraTools?: AnyWorkerAgentTool[] } = {}) =>
    startTestWorker({ plane, baseURL: model.baseURL, homes, cleanups, ...options, extraTools: options.extraTools ?? [] });

  const until = <T>(check: () => Promise<T | undefined> | T | undefined, what: string) => waitUntil(check, what, 20_000);

  it('runs queued jobs as turns and stores each final answer; a failed turn is stored as failed', async () => {
    const plane = await open();
    const jobs = await Promise.all(['alpha', 'beta', 'gamma', 'fail here'].map((prompt) => plane.client.jobs.start({ agentId: 'a', prompt })));
    const worker = start(plane);
    await until(async () => {
      const listed = await plane.client.jobs.list({ agentId: 'a', status: ['succeeded', 'failed'] });
      return listed.length === jobs.length ? listed : undefined;
    }, 'every job to finish');
    worker.stop();
    expect(await worker.done).toMatchObject({ succeeded: 3, failed: 1, released: 0 });
    const stored = await plane.client.jobs.list({ agentId: 'a' });
    expect(Object.fromEntries(stored.map((job) => [job.prompt, [job.status, job.finalAnswer]]))).toEqual({
      alpha: ['succeeded', 'done: alpha'],
      beta: ['succeeded', 'done: beta'],
      gamma: ['succeeded', 'done: gamma'],
      'fail here': ['failed', null],
    });
    expect(stored.find((job) => job.status === 'failed')?.error).toContain('The test model refuses this prompt.');
  });

  it('gives a background job no job tools, and a scheduled turn the job tools', async () => {
    const plane = await open();
    await plane.client.jobs.start({ agentId: 'b', prompt: 'background turn' });
    await plane.client.schedules.create({ agentId: 'b', prompt: 'scheduled turn', runAt: new Date(Date.now() + 300).toISOString() });
    await new Promise((resolve) => setTimeout(resolve, 400));
    await plane.fireDueSchedules();
    const before = model.requests.length;
    const worker = start(plane);
    await until(async () => ((await plane.client.jobs.list({ agentId: 'b', status: ['succeeded'] })).length === 2 ? true : undefined), 'both turns');
    worker.stop();
    await worker.done;
    const toolsByPrompt = Object.fromEntries(
      model.requests.slice(before).map((request) => {
        const input = request.body?.input as Array<{ role?: string; content?: unknown }>;
        const prompt = JSON.stringify(input.find((item) => item.role === 'user')?.content);
        return [prompt.includes('scheduled') ? 'scheduled' : 'background', (request.body?.tools as Array<{ name?: string }>).map((tool) => tool.name)];
      }),
    );
    expect(toolsByPrompt.background).toContain('schedule_create');
    expect(toolsByPrompt.background).not.toContain('start_background_job');
    expect(toolsByPrompt.scheduled).toContain('start_background_job');
  });

  it('aborts a running turn when its job is cancelled', async () => {
    const plane = await open();
    let started = 0;
    let aborted = 0;
    const waitForCancel = defineWorkerTool({
      name: 'wait_for_cancel',
      description: 'Waits until the turn is aborted.',
      schema: z.object({}),
      describeActivity: () => 'Waiting',
      execute: (_params, { signal }) =>
        new Promise<AgentToolResult>((resolve) => {
          started += 1;
          signal.addEventListener('abort', () => {
            aborted += 1;
            resolve({ content: 'aborted' });
          });
        }),
    });
    const job = await plane.client.jobs.start({ agentId: 'c', prompt: 'wait:wait_for_cancel' });
    const worker = start(plane, { extraTools: [waitForCancel] });
    await until(async () => ((await plane.client.jobs.get({ agentId: 'c', jobId: job.id })).status === 'running' ? true : undefined), 'the job to run');
    // The tool itself must be running before the cancel (a request seen by the model is not yet a call started).
    await until(() => (started === 1 ? true : undefined), 'the tool call to start');
    await plane.client.jobs.cancel({ agentId: 'c', jobId: job.id });
    await until(() => (worker.events.some((event) => event.type === 'job.cancelled') ? true : undefined), 'the turn to stop');
    expect(aborted).toBe(1);
    worker.stop();
    expect(await worker.done).toMatchObject({ cancelled: 1, succeeded: 0 });
    expect(await plane.client.jobs.get({ agentId: 'c', jobId: job.id })).toMatchObject({ status: 'cancelled', finalAnswer: null });
  });

  it('reports a job whose result the control plane refuses as lease_lost as lost, not as an error', async () => {
    const plane = await open();
    const job = await plane.client.jobs.start({ agentId: 'e', prompt: 'taken over' });
    // Between the turn's end and its result, the lease runs out and another worker's claim replaces it.
    const client = {
      ...plane.client,
      work: {
        ...plane.client.work,
        async complete(input: Parameters<ControlPlane['client']['work']['complete']>[0]) {
          await plane.driver.query(`UPDATE ${plane.schema}.job SET lease_token = gen_random_uuid(), worker_id = 'w2' WHERE id = $1`, [input.jobId]);
          return plane.client.work.complete(input);
        },
      },
    };
    const worker = start({ ...plane, client });
    await until(() => (worker.events.some((event) => event.type === 'job.lost') ? true : undefined), 'the job to be lost');
    worker.stop();
    expect(await worker.done).toMatchObject({ lost: 1, succeeded: 0 });
    expect(worker.events.filter((event) => event.type === 'worker.error')).toEqual([]);
    expect(await plane.client.jobs.get({ agentId: 'e', jobId: job.id })).toMatchObject({ status: 'running', workerId: 'w2', finalAnswer: null });
  });

  it("stores a turn whose records hold text PostgreSQL cannot store (a tool's binary output) with U+FFFD in its place", async () => {
    const plane = await open();
    const binary = defineWorkerTool({
      name: 'binary_output',
      description: 'Prints bytes that are not text.',
      schema: z.object({}),
      describeActivity: () => 'Printing',
      execute: async () => ({ content: 'bin\u0000ary \uD83D end', details: { raw: 'x\u0000' } }),
    });
    const job = await plane.client.jobs.start({ agentId: 'f', prompt: 'wait:binary_output' });
    const worker = start(plane, { extraTools: [binary] });
    await until(async () => ((await plane.client.jobs.get({ agentId: 'f', jobId: job.id })).status === 'succeeded' ? true : undefined), 'the job to finish');
    worker.stop();
    await worker.done;
    expect(worker.events.filter((event) => event.type === 'worker.error')).toEqual([]);
    const transcript = await until(async () => {
      const got = await plane.client.transcripts.get({ agentId: 'f', jobId: job.id });
      return got.attempts[0]?.entries.some((entry) => entry.event.type === 'turn.completed') ? got : undefined;
    }, 'the transcript');
    const completed = transcript.attempts[0]!.entries.find((entry) => entry.event.type === 'activity.completed')!.event as unknown as { output: string; details: unknown };
    expect(completed.output).toBe('bin\uFFFDary \uFFFD end');
    expect(completed.details).toEqual({ raw: 'x\uFFFD' });
  });

  it('hands a running job back on shutdown, and another worker finishes it', async () => {
    const plane = await open();
    const job = await plane.client.jobs.start({ agentId: 'd', prompt: 'hang a little' });
    const first = start(plane, { shutdownGraceMs: 0 });
    await until(async () => ((await plane.client.jobs.get({ agentId: 'd', jobId: job.id })).status === 'running' ? true : undefined), 'the job to run');
    // `running` is set at claim time: hand back a turn that is really running (in its hanging model request).
    await until(() => (model.requests.some((request) => lastUserText(request) === 'hang a little') ? true : undefined), 'the turn to reach the model');
    first.stop();
    expect(await first.done).toMatchObject({ released: 1 });
    expect(await plane.client.jobs.get({ agentId: 'd', jobId: job.id })).toMatchObject({ status: 'queued' });

    const second = start(plane);
    const finished = await until(async () => {
      const stored = await plane.client.jobs.get({ agentId: 'd', jobId: job.id });
      return stored.status === 'succeeded' ? stored : undefined;
    }, 'the second worker');
    second.stop();
    await second.done;
    expect(finished).toMatchObject({ finalAnswer: 'done: hang a little', attempts: 2 });
  });

  it('lets a running turn finish within the grace period on shutdown', async () => {
    const plane = await open();
    const job = await plane.client.jobs.start({ agentId: 'e', prompt: 'hang then finish' });
    const worker = start(plane, { shutdownGraceMs: 30_000 });
    await until(async () => ((await plane.client.jobs.get({ agentId: 'e', jobId: job.id })).status === 'running' ? true : undefined), 'the job to run');
    // `running` is set at claim time: stop while the turn is really running (in its hanging model request).
    await until(() => (model.requests.some((request) => lastUserText(request) === 'hang then finish') ? true : undefined), 'the turn to reach the model');
    worker.stop();
    expect(await worker.done).toMatchObject({ succeeded: 1, released: 0 });
    expect(await plane.client.jobs.get({ agentId: 'e', jobId: job.id })).toMatchObject({ status: 'succeeded', finalAnswer: 'done: hang then finish' });
  });
});
