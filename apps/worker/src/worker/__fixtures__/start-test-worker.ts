import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import type { ControlPlane } from '@core/control-plane';
import { createOpenAIResponsesGateway, type AnyWorkerAgentTool } from '@core/runtime';
import { runWorker, type WorkerEvent } from '../run-worker.js';

/** Options of `startTestWorker`. */
export interface TestWorkerOptions {
  plane: ControlPlane;
  /** The test model server's base URL. */
  baseURL: string;
  /** Folder under which each turn gets a fresh home (`<agentId>-XXXXXX`). */
  homes: string;
  /** Gets the worker's stop-and-wait, so a test that fails before stopping its worker does not leave it polling. */
  cleanups: Array<() => Promise<void>>;
  concurrency?: number;
  shutdownGraceMs?: number;
  /** Extra tools every turn gets (left out of the turn context when not given). */
  extraTools?: AnyWorkerAgentTool[];
}

/** Runs worker `w1` over `plane` against the test model (2 turns at once, polling every 50 ms, heartbeats every 100 ms). */
export function startTestWorker(options: TestWorkerOptions) {
  const stop = new AbortController();
  const events: WorkerEvent[] = [];
  const done = runWorker({
    client: options.plane.client,
    workerId: 'w1',
    concurrency: options.concurrency ?? 2,
    gateway: createOpenAIResponsesGateway({ baseURL: options.baseURL, apiKey: 'test', model: 'test-model', maxRetries: 0 }),
    turnContext: async (job) => ({
      home: await mkdtemp(path.join(options.homes, `${job.agentId}-`)),
      ...(options.extraTools === undefined ? {} : { extraTools: options.extraTools }),
    }),
    signal: stop.signal,
    pollIntervalMs: 50,
    heartbeatIntervalMs: 100,
    ...(options.shutdownGraceMs === undefined ? {} : { shutdownGraceMs: options.shutdownGraceMs }),
    onEvent: (event) => events.push(event),
  });
  options.cleanups.push(async () => {
    stop.abort();
    await done;
  });
  return { stop: () => stop.abort(), done, events };
}
