import http from 'node:http';
import type { ControlPlane } from '@core/control-plane';
import { EXAMPLE_WORKFLOW_SCRIPT } from '@core/control-plane-client/testing';
import { controlPlanes } from '@core/control-plane/testing';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccessTokens, type AccessTokens } from './access-tokens.js';
import { serveControlPlane, type ControlPlaneServer, type ServeControlPlaneOptions } from './serve-control-plane.js';

/** One raw HTTP request: `body` sent as given (a string, or chunks written one by one without a Content-Length). */
function send(url: string, path: string, options: { token?: string; body: string | string[]; headers?: Record<string, string> }): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const target = new URL(path, url);
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }), ...options.headers };
    const request = http.request({ hostname: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    request.on('error', reject);
    if (typeof options.body === 'string') request.end(options.body);
    else {
      for (const chunk of options.body) request.write(chunk);
      request.end();
    }
  });
}

const nested = (levels: number, leaf = '1') => `${'{"a":'.repeat(levels)}${leaf}${'}'.repeat(levels)}`;

describe('the HTTP control plane bounds what one request may cost (PGlite)', () => {
  const planes = controlPlanes('pglite');
  let plane: ControlPlane;
  let tokens: AccessTokens;
  let server: ControlPlaneServer;
  let token: string;
  const logged: string[] = [];

  const start = (options: Partial<ServeControlPlaneOptions> = {}) =>
    serveControlPlane({ client: plane.client, authenticate: (given) => (given === undefined ? undefined : tokens.verify(given)), port: 0, log: (line) => logged.push(line), ...options });

  beforeEach(async () => {
    plane = await planes.open();
    tokens = createAccessTokens({ driver: plane.driver, schema: plane.schema });
    server = await start();
    token = (await tokens.create({ kind: 'worker' })).token;
    logged.length = 0;
  });
  afterEach(async () => {
    await (server as ControlPlaneServer | undefined)?.close();
    await planes.cleanup();
  });
  afterAll(() => planes.close());

  it("limits each call's body: 16 KiB for a listing, 128 KiB for a prompt, more for a paused turn's state", async () => {
    const listing = await send(server.url, '/v1/jobs/list', { token, body: JSON.stringify({ agentId: 'a', pad: 'x'.repeat(17 * 1024) }) });
    expect(listing.status).toBe(413);
    expect(listing.json.error).toMatchObject({ kind: 'limit', code: 'body_too_large', message: expect.stringContaining(`${16 * 1024} bytes`) });
    const prompt = await send(server.url, '/v1/jobs/start', { token, body: JSON.stringify({ agentId: 'a', prompt: 'é'.repeat(20_000) }) });
    expect(prompt.status).toBe(200);
    const tooLong = await send(server.url, '/v1/jobs/start', { token, body: JSON.stringify({ agentId: 'a', prompt: 'p', pad: 'x'.repeat(129 * 1024) }) });
    expect(tooLong.status).toBe(413);
    // A 1 MiB run state passes the body limit of work.hold (and is then refused for its lease, 409).
    const hold = await send(server.url, '/v1/work/hold', {
      token,
      body: JSON.stringify({ jobId: prompt.json.result.id, leaseToken: 'l', runState: { text: 'x'.repeat(1024 * 1024) }, calls: [{ callId: 'c', toolName: 't', label: 'l' }] }),
    });
    expect(hold.status).not.toBe(413);
    expect((await plane.client.jobs.list({ agentId: 'a' })).length).toBe(1);
  });

  it('refuses a body whose Content-Length is over the limit without waiting for it, and a chunked one as soon as it passes', async () => {
    // Only the headers and a few bytes are sent of a declared 8 MiB body: the answer comes anyway.
    const declared = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const target = new URL('/v1/work/hold', server.url);
      const request = http.request(
        { hostname: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent: false, headers: { authorization: `Bearer ${token}`, 'content-length': String(8 * 1024 * 1024 + 1) } },
        (response) => {
          response.resume();
          resolve({ status: response.statusCode!, connection: response.headers.connection });
          request.destroy();
        },
      );
      request.on('error', reject);
      request.write('{"jobId":');
    });
    expect(declared).toEqual({ status: 413, connection: 'close' });
    const chunked = await send(server.url, '/v1/jobs/get', { token, body: ['{"agentId":"a","jobId":"', ...Array.from({ length: 40 }, () => 'x'.repeat(1024)), '"}'] });
    expect(chunked.status).toBe(413);
  });

  it('refuses nesting deeper than 64 levels with 400 input_too_deep naming the path, before parsing (4 million levels too)', async () => {
    const job = await plane.client.jobs.start({ agentId: 'a', prompt: 'p' });
    const claimed = (await plane.client.work.claim({ workerId: 'w' }))!;
    const body = (runState: string) => `{"jobId":"${job.id}","leaseToken":"${claimed.leaseToken}","calls":[{"callId":"c","toolName":"t","label":"l"}],"runState":${runState}}`;
    const deep = await send(server.url, '/v1/work/hold', { token, body: body(nested(100)) });
    expect(deep.status).toBe(400);
    expect(deep.json.error).toMatchObject({ kind: 'input', code: 'input_too_deep', field: `runState${'.a'.repeat(63)}`, message: expect.stringContaining('$.runState.a.a.a') });
    const huge = await send(server.url, '/v1/work/hold', { token, body: body(`${'['.repeat(4_000_000)}${']'.repeat(4_000_000)}`) });
    expect(huge.status).toBe(400);
    expect(huge.json.error).toMatchObject({ code: 'input_too_deep', field: `runState${'.0'.repeat(63)}` });
    // Refused as it arrives: the answer comes while most of the declared body has not been sent.
    const early = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const target = new URL('/v1/work/hold', server.url);
      const request = http.request(
        { hostname: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent: false, headers: { authorization: `Bearer ${token}`, 'content-length': '1000000' } },
        (response) => {
          response.resume();
          resolve({ status: response.statusCode!, connection: response.headers.connection });
          request.destroy();
        },
      );
      request.on('error', reject);
      request.write(`{"runState":${'['.repeat(100)}`);
    });
    expect(early).toEqual({ status: 400, connection: 'close' });
    // 63 levels inside the body's own object is within the bound.
    const fits = await send(server.url, '/v1/work/hold', { token, body: body(nested(63)) });
    expect(fits.status).toBe(200);
    expect(await plane.client.jobs.get({ agentId: 'a', jobId: job.id })).toMatchObject({ status: 'awaiting_approval' });
  });

  it('refuses a body of more than 250 000 values (a million empty objects would cost 200 MiB to parse) with 400 body_too_complex', async () => {
    const runState = `{${Array.from({ length: 300_000 }, (_, index) => `"k${index}":{}`).join(',')}}`;
    const response = await send(server.url, '/v1/work/hold', { token, body: `{"jobId":"j","leaseToken":"l","calls":[],"runState":${runState}}` });
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({ code: 'body_too_complex', field: 'runState.k249995' });
  });

  it('refuses an 8 MiB body of millions of objects before parsing it, one or eight at once (RSS printed; the bench measures the server alone)', async () => {
    const body = `{"agentId":"a","prompt":"p","pad":[${Array.from({ length: 2_700_000 }, () => '{}').join(',')}]}`;
    expect(body.length).toBeGreaterThan(8_000_000);
    global.gc?.();
    const before = process.memoryUsage().rss;
    const one = await send(server.url, '/v1/work/hold', { token, body });
    const afterOne = process.memoryUsage().rss;
    const eight = await Promise.all(Array.from({ length: 8 }, () => send(server.url, '/v1/work/hold', { token, body })));
    const afterEight = process.memoryUsage().rss;
    console.log(`RSS growth of this process (client and server): ${((afterOne - before) / 1024 / 1024).toFixed(1)} MiB for one refused ${(body.length / 1024 / 1024).toFixed(1)} MiB body, ${((afterEight - afterOne) / 1024 / 1024).toFixed(1)} MiB more for eight at once`);
    expect([one, ...eight].map((response) => response.json.error.code)).toEqual(Array(9).fill('body_too_complex'));
  });

  it('lets one token have at most 32 requests in progress (429 too_many_in_flight); other tokens are not held up', async () => {
    await server.close();
    server = await start({ maxInFlightPerToken: 3 });
    const target = new URL('/v1/jobs/list', server.url);
    // Three requests that send half their body and stay in progress.
    const stalled = await Promise.all(
      Array.from(
        { length: 3 },
        () =>
          new Promise<http.ClientRequest>((resolve) => {
            const request = http.request({ hostname: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent: false, headers: { authorization: `Bearer ${token}`, 'content-length': '100' } });
            request.on('error', () => undefined);
            request.write('{"agentId":', () => resolve(request));
          }),
      ),
    );
    let refused: { status: number; json: any } | undefined;
    for (let attempt = 0; attempt < 100 && refused?.status !== 429; attempt += 1) {
      refused = await send(server.url, '/v1/jobs/list', { token, body: '{"agentId":"a"}' });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(refused).toMatchObject({ status: 429, json: { error: { code: 'too_many_in_flight' } } });
    const other = (await tokens.create({ kind: 'worker' })).token;
    expect((await send(server.url, '/v1/jobs/list', { token: other, body: '{"agentId":"a"}' })).status).toBe(200);
    for (const request of stalled) request.destroy();
    let after: number | undefined;
    for (let attempt = 0; attempt < 100 && after !== 200; attempt += 1) {
      after = (await send(server.url, '/v1/jobs/list', { token, body: '{"agentId":"a"}' })).status;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(after).toBe(200);
  });

  it('answers 500 for a stored result nested deeper than 256 levels, the path in the log only', async () => {
    const workflow = await plane.client.workflows.start({ agentId: 'a', title: 't', script: EXAMPLE_WORKFLOW_SCRIPT });
    await plane.driver.query(`UPDATE ${plane.schema}.workflow SET input = $1::jsonb WHERE id = $2`, [nested(300), workflow.id]);
    const response = await send(server.url, '/v1/workflows/get', { token, body: JSON.stringify({ agentId: 'a', workflowId: workflow.id }) });
    expect(response.status).toBe(500);
    expect(response.json.error.code).toBe('internal_error');
    expect(logged.join('\n')).toMatch(/workflows\.get nests objects and arrays deeper than 256 levels at \$\.input\.a\.a/);
  });

  it('logs a client error as one line (method, status, code, message) and a server error with its stack', async () => {
    await send(server.url, '/v1/jobs/start', { token, body: JSON.stringify({ agentId: 'a', prompt: '' }) });
    await send(server.url, '/v1/jobs/get', { token, body: JSON.stringify({ agentId: 'a', jobId: '00000000-0000-4000-8000-000000000000' }) });
    await send(server.url, '/v1/jobs/list', { token: 'ank_wrong', body: '{}' });
    // A newline a client sent (here in the call's name) stays escaped on its line: no forged log lines.
    await send(server.url, '/v1/jobs%0A[control-plane]%20forged/list', { token, body: '{}' });
    expect(logged).toHaveLength(4);
    expect(logged[3]).toMatch(/→ 404 method_unknown: No control plane call named jobs\\n\[control-plane\] forged\.list\.$/);
    logged.pop();
    expect(logged[0]).toMatch(/^\[control-plane\] request [0-9a-f-]{36} POST \/v1\/jobs\/start → 400 input_invalid: Invalid input to jobs\.start: prompt/);
    expect(logged[1]).toMatch(/POST \/v1\/jobs\/get → 404 job_not_found: No job with id/);
    expect(logged[2]).toMatch(/POST \/v1\/jobs\/list → 401 unauthorized: The bearer token is unknown or revoked\.$/);
    for (const line of logged) expect(line).not.toMatch(/\n|    at /);
    await plane.driver.exec(`DROP TABLE ${plane.schema}.job CASCADE`);
    await send(server.url, '/v1/jobs/list', { token, body: JSON.stringify({ agentId: 'a' }) });
    expect(logged[3]).toMatch(/POST \/v1\/jobs\/list failed: .*does not exist[\s\S]*\n\s+at /);
  });
});
