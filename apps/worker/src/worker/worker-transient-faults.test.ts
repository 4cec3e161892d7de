import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createTcpServer, connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ControlPlane } from '@core/control-plane';
import { controlPlanes } from '@core/control-plane/testing';
import { createOpenAIResponsesGateway } from '@core/runtime';
import { reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { taskTitle } from '../__fixtures__/example-workflow.js';
import { until } from '../__fixtures__/until.js';
import { describeModelFailures } from '../model-failure.js';
import { runWorker, type WorkerEvent } from './run-worker.js';

/** A TCP port nobody listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createTcpServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts forwarding `port` to `target` (until then, connecting to `port` is refused). */
function forward(port: number, target: number): Promise<Server> {
  return new Promise((resolve) => {
    const server = createTcpServer((socket) => {
      const upstream = connect(target, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    }).listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** The model's answers once the faults are over: a task turn submits, a job answers. */
const answer = reply.text('done');

// A worker whose model endpoint fails the first requests (connection refused, HTTP 500, HTTP 429): each failure is a
// passing one, so the job (and a workflow task) still succeeds, after three retries of the same model call.
describe.each(['postgres', 'pglite'] as const)('the worker through transient model faults on %s', (kind) => {
  const planes = controlPlanes(kind);
  let homes: string;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    homes = await mkdtemp(path.join(tmpdir(), 'ankole-worker-faults-'));
    await planes.open();
  }, 120_000);
  afterAll(async () => {
    await planes.close();
    await rm(homes, { recursive: true, force: true });
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await planes.cleanup();
  });

  /** A testkit model that answers 500, then 429, then as the turn needs; reached through a port that refuses at first. */
  async function faultyModel(): Promise<{ server: TestModelServer; baseURL: string; open: () => Promise<void> }> {
    const server = await startTestModelServer({
      script: [reply.serverError(500, { message: 'The server had an error.' }), reply.rateLimited({ retryAfterSeconds: 0.01 })],
      onExhausted: (request) =>
        taskTitle(request) === undefined ? answer : reply.functionCalls([{ name: 'submit_result', arguments: { text: 'submitted' } }]),
    });
    const port = await freePort();
    let proxy: Server | undefined;
    cleanups.push(async () => {
      await new Promise((resolve) => (proxy === undefined ? resolve(undefined) : proxy.close(resolve)));
      await server.close();
    });
    return {
      server,
      baseURL: `http://127.0.0.1:${port}/v1`,
      open: async () => {
        proxy ??= await forward(port, Number(new URL(server.url).port));
      },
    };
  }

  function start(plane: ControlPlane, baseURL: string, options: { attempts?: number; onEvent?: (event: WorkerEvent) => void } = {}) {
    const stop = new AbortController();
    const events: WorkerEvent[] = [];
    const model = 'test-model';
    const done = runWorker({
      client: plane.client,
      workerId: 'w1',
      // The SDK does not retry here: every failure reaches the worker.
      gateway: describeModelFailures(createOpenAIResponsesGateway({ baseURL, apiKey: 'test', model, maxRetries: 0 }), { baseURL, model }),
      modelRetry: { attempts: options.attempts ?? 6, baseDelayMs: 100, maxDelayMs: 400 },
      turnContext: async (job) => ({ home: await mkdtemp(path.join(homes, `${job.agentId}-`)) }),
      signal: stop.signal,
      pollIntervalMs: 50,
      heartbeatIntervalMs: 100,
      onEvent: (event) => {
        events.push(event);
        options.onEvent?.(event);
      },
    });
    cleanups.push(async () => {
      stop.abort();
      await done;
    });
    return { events, done, stop: () => stop.abort() };
  }


  it('a job whose model calls are refused, then answered 500, then 429 still succeeds on its first claim', async () => {
    const plane = await planes.open();
    const model = await faultyModel();
    const job = await plane.client.jobs.start({ agentId: 'agent-f', prompt: 'tidy the notes' });
    // The endpoint starts listening only after the first retry was announced: the first call met a closed port.
    const worker = start(plane, model.baseURL, { onEvent: (event) => void (event.type === 'job.retrying' && model.open()) });

    const stored = await until(async () => {
      const record = await plane.client.jobs.get({ agentId: 'agent-f', jobId: job.id });
      return record.status === 'queued' || record.status === 'running' ? undefined : record;
    }, 'the job to end');
    expect(stored).toMatchObject({ status: 'succeeded', finalAnswer: 'done', attempts: 1 });
    const retries = worker.events.flatMap((event) => (event.type === 'job.retrying' ? [[event.attempt, event.error]] : []));
    expect(retries).toEqual([
      [1, expect.stringMatching(/^Could not reach the model endpoint http:\/\/127\.0\.0\.1:\d+\/v1 \(.*ECONNREFUSED.*\): check OPENAI_BASE_URL and your network\.$/)],
      [2, expect.stringMatching(/failed with HTTP 500 \(The server had an error\): try again later\.$/)],
      [3, expect.stringMatching(/kept rate-limiting the requests \(HTTP 429/)],
    ]);
    expect(model.server.requests).toHaveLength(3);
  });

  it('a workflow task turn rides out the same faults and its result is stored', async () => {
    const plane = await planes.open();
    const model = await faultyModel();
    const result = { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } };
    const workflow = await plane.client.workflows.start({
      agentId: 'agent-f',
      title: 'One task',
      script: `const answer = await task({ title: 'Only', prompt: 'say something', result: ${JSON.stringify(result)} });\nreturn answer;`,
      input: {},
    });
    const worker = start(plane, model.baseURL, { onEvent: (event) => void (event.type === 'task.retrying' && model.open()) });

    const done = await until(async () => {
      const details = await plane.client.workflows.get({ agentId: 'agent-f', workflowId: workflow.id });
      return details.status === 'running' ? undefined : details;
    }, 'the workflow to finish');
    expect(done).toMatchObject({ status: 'succeeded', result: { text: 'submitted' } });
    expect(done.tasks.map((task) => [task.status, task.attempts])).toEqual([['succeeded', 1]]);
    expect(worker.events.filter((event) => event.type === 'task.retrying').map((event) => (event as { attempt: number }).attempt)).toEqual([1, 2, 3]);
  });

  it('a fault that does not pass fails the job after the bounded tries, with the last error in the one wording', async () => {
    const plane = await planes.open();
    const server = await startTestModelServer({ script: [], onExhausted: reply.serverError(503, { message: 'Overloaded.' }) });
    cleanups.push(() => server.close());
    const job = await plane.client.jobs.start({ agentId: 'agent-f', prompt: 'tidy the notes' });
    const worker = start(plane, server.baseURL, { attempts: 3 });

    const stored = await until(async () => {
      const record = await plane.client.jobs.get({ agentId: 'agent-f', jobId: job.id });
      return record.status === 'queued' || record.status === 'running' ? undefined : record;
    }, 'the job to end');
    expect(stored.status).toBe('failed');
    expect(stored.error).toBe(`The model endpoint ${server.baseURL} failed with HTTP 503 (Overloaded): try again later.`);
    expect(server.requests).toHaveLength(3);
    expect(worker.events.filter((event) => event.type === 'job.retrying')).toHaveLength(2);
  });
});
