import type { ControlPlane } from '@core/control-plane';
import { createHttpControlPlaneClient, type ControlPlaneChangeEvent } from '@core/control-plane-client';
import { controlPlanes } from '@core/control-plane/testing';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccessTokens, type AccessTokens } from './access-tokens.js';
import { serveWithTokens } from './__fixtures__/serve-with-tokens.js';
import type { ControlPlaneServer, ServeControlPlaneOptions } from './serve-control-plane.js';

interface ServerSentEvent {
  event: string;
  data: unknown;
}

/** Reads a `text/event-stream` answer event by event (comments are counted, not returned). */
function readEvents(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let comments = 0;
  return {
    get comments() {
      return comments;
    },
    /** The next event, or `undefined` once the stream ended. */
    async next(): Promise<ServerSentEvent | undefined> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          if (lines.every((line) => line.startsWith(':'))) {
            comments += 1;
            continue;
          }
          const field = (name: string) => lines.filter((line) => line.startsWith(`${name}: `)).map((line) => line.slice(name.length + 2));
          return { event: field('event')[0] ?? 'message', data: JSON.parse(field('data').join('\n')) };
        }
        const { value, done } = await reader.read();
        if (done) return undefined;
        buffer += value;
      }
    },
    /** The next `change` event (skipping others), or fails on `end`. */
    async nextChange(): Promise<Record<string, unknown>> {
      for (;;) {
        const event = await this.next();
        if (event === undefined || event.event === 'end') throw new Error(`the stream ended: ${JSON.stringify(event)}`);
        if (event.event === 'change') return event.data as Record<string, unknown>;
      }
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}

describe('GET /v1/changes: the change stream (PGlite)', () => {
  const planes = controlPlanes('pglite');
  let plane: ControlPlane;
  let tokens: AccessTokens;
  let server: ControlPlaneServer;
  const logged: string[] = [];

  const start = (options: Partial<ServeControlPlaneOptions> = {}) => serveWithTokens(plane, tokens, logged, { changes: plane.changes, ...options });
  const open = (token: string | undefined, query = '') =>
    fetch(`${server.url}/v1/changes${query}`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
  /** A stream opened with `token`, read up to its `ready` event. */
  const ready = async (token: string, query = '') => {
    const response = await open(token, query);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = readEvents(response);
    expect((await events.next())?.event).toBe('ready');
    return events;
  };

  beforeEach(async () => {
    plane = await planes.open();
    tokens = createAccessTokens({ driver: plane.driver, schema: plane.schema });
    server = await start();
    logged.length = 0;
  });
  afterEach(async () => {
    await server.close();
    await planes.cleanup();
  });
  afterAll(() => planes.close());

  it("streams an agent token only its own agent's changes, and a worker token every agent's (or one's)", async () => {
    const ops = (await tokens.create({ kind: 'agent', agentId: 'ops' })).token;
    const worker = (await tokens.create({ kind: 'worker' })).token;
    const opsEvents = await ready(ops);
    const workerEvents = await ready(worker);
    const onlyOps = await ready(worker, '?agentId=ops');
    const secret = await plane.client.jobs.start({ agentId: 'payroll', prompt: 'p' });
    const own = await plane.client.jobs.start({ agentId: 'ops', prompt: 'p' });
    // The payroll job came first: a stream that showed it would give it first.
    expect(await opsEvents.nextChange()).toEqual({ kind: 'job', id: own.id, agentId: 'ops' });
    expect(await onlyOps.nextChange()).toMatchObject({ id: own.id });
    expect(await workerEvents.nextChange()).toMatchObject({ id: secret.id, agentId: 'payroll' });
    expect(await workerEvents.nextChange()).toMatchObject({ id: own.id, agentId: 'ops' });
    for (const events of [opsEvents, workerEvents, onlyOps]) await events.cancel();
  });

  it('refuses a missing or wrong token and another agent, and is not there without changes', async () => {
    const ops = (await tokens.create({ kind: 'agent', agentId: 'ops' })).token;
    expect((await open(undefined)).status).toBe(401);
    expect((await open('nope')).status).toBe(401);
    const other = await open(ops, '?agentId=payroll');
    expect(other.status).toBe(403);
    expect(await other.json()).toMatchObject({ error: { code: 'agent_forbidden' } });
    expect((await open(ops, '?agentId=')).status).toBe(400);
    // Without `changes` the route does not exist.
    await server.close();
    server = await start({ changes: undefined });
    expect((await open(ops)).status).toBe(404);
  });

  it("takes the dashboard's cookie only from the dashboard itself: without its header, or from another site, 403", async () => {
    await server.close();
    server = await start({ dashboard: true });
    const { token } = await tokens.create({ kind: 'agent', agentId: 'ops' });
    const withCookie = (headers: Record<string, string>) => fetch(`${server.url}/v1/changes`, { headers: { cookie: `ankole_session=${token}`, ...headers } });
    const crossSite: Array<Record<string, string>> = [{}, { 'x-ankole-dashboard': '1', 'sec-fetch-site': 'cross-site' }, { 'x-ankole-dashboard': '1', origin: 'https://evil.example' }];
    for (const headers of crossSite) {
      const refused = await withCookie(headers);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ error: { code: 'cross_site' } });
    }
    const own = await withCookie({ 'x-ankole-dashboard': '1', 'sec-fetch-site': 'same-origin' });
    expect(own.status).toBe(200);
    const events = readEvents(own);
    expect((await events.next())?.event).toBe('ready');
    await events.cancel();
  });

  it('ends a stream whose token was revoked at its next keep-alive, and counts streams with the long polls', async () => {
    await server.close();
    server = await start({ changeStreamKeepAliveMs: 100, maxWaitersPerToken: 2 });
    const { token, record } = await tokens.create({ kind: 'agent', agentId: 'ops' });
    const first = await ready(token);
    const second = await ready(token);
    const third = await open(token);
    expect(third.status).toBe(429);
    expect(await third.json()).toMatchObject({ error: { code: 'too_many_waiting' } });
    await second.cancel();
    await tokens.revoke(record.id);
    let event: ServerSentEvent | undefined;
    do event = await first.next();
    while (event !== undefined && event.event !== 'end');
    expect(event).toEqual({ event: 'end', data: { reason: 'revoked' } });
    expect(first.comments).toBeGreaterThan(0);
    expect(await first.next()).toBeUndefined();
  });

  it('ends streams when the server closes, and after their longest time (the reader connects again)', async () => {
    await server.close();
    server = await start({ changeStreamMaxMs: 300 });
    const worker = (await tokens.create({ kind: 'worker' })).token;
    const events = await ready(worker);
    expect(await events.next()).toEqual({ event: 'end', data: { reason: 'reconnect' } });
    const again = await ready(worker);
    const closed = server.close();
    expect(await again.next()).toEqual({ event: 'end', data: { reason: 'closing' } });
    await closed;
  });

  it("gives the HTTP client's `changes`: ready before it resolves, a gap after it connected again, nothing after close", async () => {
    await server.close();
    server = await start({ changeStreamMaxMs: 1_500 });
    const { token } = await tokens.create({ kind: 'agent', agentId: 'ops' });
    const client = createHttpControlPlaneClient({ url: server.url, token });
    const heard: ControlPlaneChangeEvent[] = [];
    await client.changes.subscribe((event) => heard.push(event));
    // Listening once subscribe resolved: a job started right after it is heard.
    const job = await plane.client.jobs.start({ agentId: 'ops', prompt: 'p' });
    await plane.client.jobs.start({ agentId: 'payroll', prompt: 'p' });
    await expect.poll(() => heard).toContainEqual({ kind: 'job', id: job.id, agentId: 'ops' });
    // The server ends the stream after 1.5 s; the client connects again and says changes may have been missed.
    await expect.poll(() => heard.filter((event) => event.kind === 'gap').length, { timeout: 10_000 }).toBeGreaterThan(0);
    const later = await plane.client.jobs.start({ agentId: 'ops', prompt: 'p' });
    await expect.poll(() => heard).toContainEqual({ kind: 'job', id: later.id, agentId: 'ops' });
    expect(heard.filter((event) => event.kind === 'job').every((event) => event.kind === 'job' && event.agentId === 'ops')).toBe(true);
    await client.close();
    const count = heard.length;
    await plane.client.jobs.start({ agentId: 'ops', prompt: 'p' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toHaveLength(count);
  });

  it("resolves the HTTP client's subscribe against a server without the stream, and hears nothing", async () => {
    await server.close();
    server = await start({ changes: undefined });
    const { token } = await tokens.create({ kind: 'worker' });
    const client = createHttpControlPlaneClient({ url: server.url, token });
    const heard: ControlPlaneChangeEvent[] = [];
    const stop = await client.changes.subscribe((event) => heard.push(event));
    await plane.client.jobs.start({ agentId: 'ops', prompt: 'p' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toEqual([]);
    stop();
    await client.close();
  });
});
