import type { ControlPlane } from '@core/control-plane';
import { controlPlanes } from '@core/control-plane/testing';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveControlPlane, type ControlPlaneServer, type ServeControlPlaneOptions } from './serve-control-plane.js';

// Waits are longer than each test's timeout (15 s): a call can only answer in time because the server ended its wait.
const LONG = 30_000;

describe('the HTTP control plane bounds its long polls (PGlite)', () => {
  const planes = controlPlanes('pglite');
  let plane: ControlPlane;
  let server: ControlPlaneServer | undefined;
  beforeEach(async () => {
    plane = await planes.open({ longPollRecheckMs: 60_000 });
  });
  afterEach(async () => {
    await server?.close();
    await planes.cleanup();
  });
  afterAll(() => planes.close());

  const serve = async (options: Partial<ServeControlPlaneOptions> = {}) =>
    (server = await serveControlPlane({ client: plane.client, authenticate: () => ({ kind: 'local' }), port: 0, ...options }));
  const claim = (url: string) =>
    fetch(`${url}/v1/work/claim`, { method: 'POST', body: JSON.stringify({ workerId: 'w', waitMs: LONG }) }).then(async (response) => ({
      status: response.status,
      body: (await response.json()) as unknown,
    }));

  it('ends the waiting long polls when it closes: each answers null, and close resolves', { timeout: 15_000 }, async () => {
    const { url } = await serve();
    const events: string[] = [];
    const waiting = claim(url).then((answer) => (events.push('answered'), answer));
    await fetch(`${url}/v1/jobs/list`, { method: 'POST', body: JSON.stringify({ agentId: 'a' }) });
    events.push('closing');
    await server!.close();
    events.push('closed');
    expect(await waiting).toEqual({ status: 200, body: { result: null } });
    expect(events).toEqual(['closing', 'answered', 'closed']);
  });

  it('lets each token wait in at most maxWaitersPerToken long polls: one more answers at once', { timeout: 15_000 }, async () => {
    const { url } = await serve({ maxWaitersPerToken: 1 });
    const events: string[] = [];
    const first = claim(url).then((answer) => (events.push('first answered'), answer));
    await fetch(`${url}/v1/jobs/list`, { method: 'POST', body: JSON.stringify({ agentId: 'a' }) });
    expect(await claim(url)).toEqual({ status: 200, body: { result: null } });
    events.push('second answered');
    // The first still waits, and takes the next job.
    const job = await plane.client.jobs.start({ agentId: 'a', prompt: 'p' });
    expect(await first).toMatchObject({ status: 200, body: { result: { id: job.id, status: 'running' } } });
    expect(events).toEqual(['second answered', 'first answered']);
  });
});
