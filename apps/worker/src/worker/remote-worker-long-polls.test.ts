import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHttpControlPlaneClient } from '@core/control-plane-client';
import type { ControlPlane } from '@core/control-plane';
import { controlPlanes } from '@core/control-plane/testing';
import { createAccessTokens, serveControlPlane, type ControlPlaneServer } from '@core/control-plane-http';
import { createOpenAIResponsesGateway, defineWorkerTool, type AgentToolResult, type AnyWorkerAgentTool } from '@core/runtime';
import type { TestModelServer } from '@core/testkit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { until } from '../__fixtures__/until.js';
import { startWorkerModel } from './__fixtures__/worker-model.js';
import { runWorker, type WorkerEvent } from './run-worker.js';

// A worker on another machine: it reaches the control plane over HTTP only. Its claims wait 29 s, its heartbeats come
// every 29 s, it never polls on its own in between (60 s) and the control plane never re-checks without a notification
// (60 s): each test's 25 s timeout passes only if the long polls bring the new job and the cancel at once.
const SLOW = { claimWaitMs: 29_000, heartbeatIntervalMs: 29_000, pollIntervalMs: 60_000 };

describe.each(['postgres', 'pglite'] as const)('a remote worker over HTTP reacts through long polls (%s)', (kind) => {
  const planes = controlPlanes(kind);
  let model: TestModelServer;
  let homes: string;
  let plane: ControlPlane;
  let server: ControlPlaneServer;
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    model = await startWorkerModel({ hangMs: 1_500 });
    homes = await mkdtemp(path.join(tmpdir(), 'ankole-remote-worker-'));
  }, 60_000);
  afterAll(async () => {
    await model.close();
    await planes.close();
    await rm(homes, { recursive: true, force: true });
  });
  beforeEach(async () => {
    plane = await planes.open({ leaseSeconds: 120, longPollRecheckMs: 60_000 });
    const tokens = createAccessTokens({ driver: plane.driver, schema: plane.schema });
    const { token } = await tokens.create({ kind: 'worker', label: 'remote' });
    server = await serveControlPlane({ client: plane.client, authenticate: (presented) => (presented === undefined ? undefined : tokens.verify(presented)), port: 0 });
    const remote = createHttpControlPlaneClient({ url: server.url, token });
    stops.push(async () => {
      await remote.close();
      await server.close();
    });
    client = remote;
  }, 60_000);
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
    await planes.cleanup();
  });
  let client: ReturnType<typeof createHttpControlPlaneClient>;

  function startRemoteWorker(extraTools: AnyWorkerAgentTool[] = []) {
    const stop = new AbortController();
    const events: WorkerEvent[] = [];
    const done = runWorker({
      client,
      workerId: 'remote-1',
      gateway: createOpenAIResponsesGateway({ baseURL: model.baseURL, apiKey: 'test', model: 'test-model', maxRetries: 0 }),
      turnContext: async (job) => ({ home: await mkdtemp(path.join(homes, `${job.agentId}-`)), extraTools }),
      signal: stop.signal,
      shutdownGraceMs: 0,
      ...SLOW,
      onEvent: (event) => events.push(event),
    });
    stops.push(async () => {
      stop.abort();
      await done;
    });
    return { events, stop: () => stop.abort(), done };
  }

  it('starts a job queued while it waits, at once', { timeout: 25_000 }, async () => {
    const worker = startRemoteWorker();
    await client.jobs.list({ agentId: 'a' });
    const job = await plane.client.jobs.start({ agentId: 'a', prompt: 'alpha' });
    await until(() => (worker.events.some((event) => event.type === 'job.succeeded') ? true : undefined), 'the job to succeed', 24_000);
    expect(await plane.client.jobs.get({ agentId: 'a', jobId: job.id })).toMatchObject({ status: 'succeeded', workerId: 'remote-1' });
    expect(worker.events.map((event) => event.type).filter((type) => type.startsWith('job.') || type === 'worker.error')).toEqual(['job.claimed', 'job.succeeded']);
    worker.stop();
    expect(await worker.done).toMatchObject({ succeeded: 1 });
  });

  it('stops a running turn as soon as its job is cancelled from elsewhere (the heartbeat long poll), not at the next beat', { timeout: 25_000 }, async () => {
    let started = 0;
    let aborted = 0;
    const worker = startRemoteWorker([
      defineWorkerTool({
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
      }),
    ]);
    const job = await plane.client.jobs.start({ agentId: 'c', prompt: 'wait:wait_for_cancel' });
    // The tool itself must be running before the cancel (a request seen by the model is not yet a call started).
    await until(() => (started === 1 ? true : undefined), 'the tool call to start', 24_000);
    await plane.client.jobs.cancel({ agentId: 'c', jobId: job.id });
    await until(() => (worker.events.some((event) => event.type === 'job.cancelled') ? true : undefined), 'the turn to stop', 24_000);
    expect(aborted).toBe(1);
    worker.stop();
    expect(await worker.done).toMatchObject({ cancelled: 1, succeeded: 0 });
    expect(await plane.client.jobs.get({ agentId: 'c', jobId: job.id })).toMatchObject({ status: 'cancelled' });
  });
});
