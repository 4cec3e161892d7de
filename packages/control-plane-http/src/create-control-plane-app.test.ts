import { createServer } from 'node:net';
import { ControlPlaneFailure, ControlPlaneNotFoundError, createHttpControlPlaneClient, RPC_METHODS } from '@core/control-plane-client';
import type { ControlPlane } from '@core/control-plane';
import { controlPlanes } from '@core/control-plane/testing';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccessTokens, type AccessTokens } from './access-tokens.js';
import { serveWithTokens } from './__fixtures__/serve-with-tokens.js';
import type { ControlPlaneServer, ServeControlPlaneOptions } from './serve-control-plane.js';

describe('the HTTP control plane: auth, limits and errors (PGlite)', () => {
  const planes = controlPlanes('pglite');
  let plane: ControlPlane;
  let tokens: AccessTokens;
  let server: ControlPlaneServer;
  const logged: string[] = [];

  const start = (options: Partial<ServeControlPlaneOptions> = {}) => serveWithTokens(plane, tokens, logged, options);
  const post = (path: string, body: string, token?: string) =>
    fetch(`${server.url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) } });

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

  const storedJobs = async () => [...(await plane.client.jobs.list({ agentId: 'a' })), ...(await plane.client.jobs.list({ agentId: 'b' }))];

  it('answers the health check without a token, binding 127.0.0.1 by default', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${server.url}/v1/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('describes itself as OpenAPI 3.1, one path per call with the input schema as its body', async () => {
    const response = await fetch(`${server.url}/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, { post?: { requestBody: { content: Record<string, { schema: { required?: string[] } }> } } }> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual(['/v1/health', '/v1/changes', ...Object.keys(RPC_METHODS).map((name) => `/v1/${name.replace('.', '/')}`)].sort());
    expect(document.paths['/v1/jobs/start']!.post!.requestBody.content['application/json']!.schema.required).toEqual(['agentId', 'prompt']);
  });

  it('refuses a call without a token (401) and stores nothing', async () => {
    const response = await post('/v1/jobs/start', JSON.stringify({ agentId: 'a', prompt: 'p' }));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { kind: 'auth', code: 'unauthorized', message: expect.stringContaining('bearer token is required') } });
    const client = createHttpControlPlaneClient({ url: server.url });
    await expect(client.jobs.start({ agentId: 'a', prompt: 'p' })).rejects.toMatchObject({ code: 'unauthorized' });
    await client.close();
    expect(await storedJobs()).toEqual([]);
  });

  it('refuses a wrong token and a revoked one (401), as a ControlPlaneFailure through the client', async () => {
    const client = createHttpControlPlaneClient({ url: server.url, token: 'ank_not-a-token-we-made' });
    const error = await client.jobs.start({ agentId: 'a', prompt: 'p' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ControlPlaneFailure);
    expect(error).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('unknown or revoked') });
    await client.close();
    const { token, record } = await tokens.create({ kind: 'worker' });
    expect((await post('/v1/jobs/list', JSON.stringify({ agentId: 'a' }), token)).status).toBe(200);
    expect(await tokens.revoke(record.id)).toBe(true);
    expect((await post('/v1/jobs/start', JSON.stringify({ agentId: 'a', prompt: 'p' }), token)).status).toBe(401);
    expect(await storedJobs()).toEqual([]);
    // Only the hash is stored.
    const { rows } = await plane.driver.query<{ token_hash: string }>(`SELECT token_hash FROM ${plane.schema}.access_token`);
    expect(rows.map((row) => row.token_hash)).not.toContain(token);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("keeps an agent token to its agent: another agent's rows and worker calls are refused (403)", async () => {
    const { token } = await tokens.create({ kind: 'agent', agentId: 'a' });
    const other = await plane.client.jobs.start({ agentId: 'b', prompt: 'secret of b' });
    const client = createHttpControlPlaneClient({ url: server.url, token });
    await expect(client.jobs.start({ agentId: 'b', prompt: 'p' })).rejects.toMatchObject({ code: 'agent_forbidden' });
    await expect(client.jobs.get({ agentId: 'b', jobId: other.id })).rejects.toMatchObject({ code: 'agent_forbidden' });
    await expect(client.jobs.cancel({ agentId: 'b', jobId: other.id })).rejects.toMatchObject({ code: 'agent_forbidden' });
    await expect(client.work.claim({ workerId: 'w' })).rejects.toMatchObject({ code: 'forbidden' });
    // Its own agent works; the other agent's job id is simply not found for it.
    const own = await client.jobs.start({ agentId: 'a', prompt: 'mine' });
    await expect(client.jobs.get({ agentId: 'a', jobId: other.id })).rejects.toBeInstanceOf(ControlPlaneNotFoundError);
    // A call without agentId is made for the token's agent.
    const listed = await post('/v1/jobs/list', JSON.stringify({}), token);
    expect(((await listed.json()) as { result: Array<{ id: string }> }).result.map((job) => job.id)).toEqual([own.id]);
    expect(await plane.client.jobs.get({ agentId: 'b', jobId: other.id })).toMatchObject({ status: 'queued' });
    expect((await plane.client.jobs.list({ agentId: 'b' })).length).toBe(1);
    await client.close();
  });

  it('answers malformed bodies with 400 and oversized ones with 413, storing nothing', async () => {
    await server.close();
    server = await start({ maxBodyBytes: 1024 });
    const { token } = await tokens.create({ kind: 'worker' });
    for (const body of ['{"agentId": "a", "prompt": ', 'null', '[1,2]', '"text"']) {
      const response = await post('/v1/jobs/start', body, token);
      expect(response.status, body).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'body_invalid' } });
    }
    const invalid = await post('/v1/jobs/start', JSON.stringify({ agentId: 'a', prompt: '' }), token);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ error: { kind: 'input', code: 'input_invalid', message: expect.stringContaining('Invalid input to jobs.start: prompt') } });
    const large = await post('/v1/jobs/start', JSON.stringify({ agentId: 'a', prompt: 'x'.repeat(5000) }), token);
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ error: { code: 'body_too_large' } });
    const unknown = await post('/v1/jobs/drop', '{}', token);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'method_unknown' } });
    expect(await storedJobs()).toEqual([]);
  });

  it('manages tokens only for the local socket: a bearer token, even a worker one, is refused (403)', async () => {
    await server.close();
    server = await start({ tokens });
    const { token } = await tokens.create({ kind: 'worker' });
    const refused = await post('/v1/admin/tokens/create', JSON.stringify({ kind: 'worker' }), token);
    expect(refused.status).toBe(403);
    expect((await tokens.list()).length).toBe(1);
    const local = await start({ tokens, authenticate: () => ({ kind: 'local' }) });
    const made = await fetch(`${local.url}/v1/admin/tokens/create`, { method: 'POST', body: JSON.stringify({ kind: 'agent', agentId: 'a' }) });
    expect(((await made.json()) as { result: { token: string } }).result.token).toMatch(/^ank_/);
    await local.close();
    expect((await tokens.list()).map((record) => record.kind).sort()).toEqual(['agent', 'worker']);
  });

  it('limits the request rate per token (429 with Retry-After)', async () => {
    await server.close();
    server = await start({ ratePerSecond: 1, rateBurst: 3 });
    const { token } = await tokens.create({ kind: 'worker' });
    const statuses: number[] = [];
    for (let index = 0; index < 5; index += 1) statuses.push((await post('/v1/jobs/list', JSON.stringify({ agentId: 'a' }), token)).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    const limited = await post('/v1/jobs/list', JSON.stringify({ agentId: 'a' }), token);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
  });

  it('says only "internal error" and a request id when the database fails; the details go to the log', async () => {
    const { token } = await tokens.create({ kind: 'worker' });
    await plane.driver.exec(`DROP TABLE ${plane.schema}.job CASCADE`);
    const response = await post('/v1/jobs/list', JSON.stringify({ agentId: 'a' }), token);
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { code: string; message: string; requestId: string } };
    expect(body.error.code).toBe('internal_error');
    expect(body.error.message).toBe(`The control plane had an internal error (request ${body.error.requestId}).`);
    expect(JSON.stringify(body)).not.toMatch(/relation|job|schema|sql/i);
    expect(logged.join('\n')).toContain(body.error.requestId);
    expect(logged.join('\n')).toMatch(/does not exist/);
  });

  it('long-polls a claim: a worker waiting on the server gets a job queued while it waits', async () => {
    const { token } = await tokens.create({ kind: 'worker' });
    const client = createHttpControlPlaneClient({ url: server.url, token, claimWaitMs: 10_000 });
    const claiming = client.work.claim({ workerId: 'w' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const job = await plane.client.jobs.start({ agentId: 'a', prompt: 'now' });
    const queuedAt = Date.now();
    expect(await claiming).toMatchObject({ id: job.id, status: 'running', workerId: 'w' });
    console.log(`long-polled claim answered ${Date.now() - queuedAt} ms after the job was queued`);
    await client.close();
  });

  it('retries a refused connection, then says the control plane is unreachable', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const client = createHttpControlPlaneClient({ url: `http://127.0.0.1:${port}`, token: 'ank_x', retries: 2, retryDelayMs: 10 });
    await expect(client.jobs.list({ agentId: 'a' })).rejects.toMatchObject({ code: 'control_plane_unreachable', message: expect.stringContaining('ECONNREFUSED') });
    await client.close();
  });
});
