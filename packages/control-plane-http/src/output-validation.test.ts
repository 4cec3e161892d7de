import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ControlPlaneOutputError, createHttpControlPlaneClient, RPC_METHODS, type ControlPlaneClient } from '@core/control-plane-client';
import type { ControlPlane } from '@core/control-plane';
import { controlPlanes } from '@core/control-plane/testing';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { controlPlaneOpenApi } from './openapi-document.js';
import { serveControlPlane, type ControlPlaneServer } from './serve-control-plane.js';

describe('results are checked with the output schemas on both sides', () => {
  describe('the client, against a server that answers malformed results', () => {
    let server: Server;
    let answer: unknown;
    let url: string;
    beforeEach(async () => {
      server = createServer((request, response) => {
        request.resume();
        request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const job = {
      id: '9b2a3c4d-0000-4000-8000-000000000001',
      agentId: 'a',
      kind: 'background',
      scheduleId: null,
      fireAt: null,
      title: 't',
      prompt: 'p',
      home: null,
      allowJobs: false,
      status: 'queued',
      finalAnswer: null,
      error: null,
      attempts: 0,
      workerId: null,
      createdAt: '2026-12-01T08:00:00.000Z',
      startedAt: null,
      finishedAt: null,
      updatedAt: '2026-12-01T08:00:00.000Z',
    };

    it('accepts a well-formed result (and drops fields the schema does not name)', async () => {
      answer = { result: { ...job, leaseToken: 'kept?' } };
      const client = createHttpControlPlaneClient({ url, token: 't', retries: 0 });
      expect(await client.jobs.get({ agentId: 'a', jobId: job.id })).toEqual(job);
      await client.close();
    });

    it.each([
      ['a time that is not ISO 8601', { ...job, createdAt: 'yesterday' }, '$.createdAt'],
      ['a missing field', { ...job, status: undefined }, '$.status'],
      ['a status that does not exist', { ...job, status: 'exploded' }, '$.status'],
      ['a count sent as a string (a bigint on the wire)', { ...job, attempts: '3' }, '$.attempts'],
    ])('throws ControlPlaneOutputError naming the call and the path for %s', async (_what, result, path) => {
      answer = { result };
      const client = createHttpControlPlaneClient({ url, token: 't', retries: 0 });
      const error = await client.jobs.get({ agentId: 'a', jobId: job.id }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ControlPlaneOutputError);
      expect(error).toMatchObject({ code: 'output_invalid', method: 'jobs.get', path });
      expect((error as Error).message).toContain(`The result of jobs.get from the control plane at ${url} does not match its schema at ${path}`);
      await client.close();
    });

    it('checks nested records and nullable results: a claimed job list element, a task inside workflow details', async () => {
      const client = createHttpControlPlaneClient({ url, token: 't', retries: 0 });
      answer = { result: [job, { ...job, agentId: 7 }] };
      await expect(client.jobs.list({ agentId: 'a' })).rejects.toMatchObject({ method: 'jobs.list', path: '$[1].agentId' });
      answer = { result: null };
      expect(await client.work.claim({ workerId: 'w' })).toBeNull();
      answer = { result: { ...job } };
      await expect(client.work.claim({ workerId: 'w' })).rejects.toMatchObject({ method: 'work.claim', path: '$.leaseToken' });
      answer = {};
      await expect(client.jobs.get({ agentId: 'a', jobId: job.id })).rejects.toMatchObject({ code: 'bad_answer' });
      await client.close();
    });
  });

  describe('the server, in front of a client that returns malformed results (PGlite)', () => {
    const planes = controlPlanes('pglite');
    let plane: ControlPlane;
    let server: ControlPlaneServer;
    const logged: string[] = [];
    afterEach(async () => {
      await server.close();
      await planes.cleanup();
    });
    afterAll(() => planes.close());

    it('answers 500 internal_error with the request id, logs the call and the path, and leaks nothing', async () => {
      plane = await planes.open();
      const secret = 'sk-secret-value-in-a-broken-record';
      const broken: ControlPlaneClient = {
        ...plane.client,
        jobs: {
          ...plane.client.jobs,
          // A record builder bug: a Date and an extra secret column where strings belong.
          get: async (input) => ({ ...(await plane.client.jobs.get(input)), createdAt: new Date() as unknown as string, title: { secret } as unknown as string }),
        },
      };
      logged.length = 0;
      server = await serveControlPlane({ client: broken, authenticate: () => ({ kind: 'local' }), port: 0, log: (line) => logged.push(line) });
      const job = await plane.client.jobs.start({ agentId: 'a', prompt: 'p' });
      const response = await fetch(`${server.url}/v1/jobs/get`, { method: 'POST', body: JSON.stringify({ agentId: 'a', jobId: job.id }) });
      expect(response.status).toBe(500);
      const text = await response.text();
      const body = JSON.parse(text) as { error: { code: string; requestId: string; message: string } };
      expect(body.error).toMatchObject({ kind: 'failure', code: 'internal_error' });
      expect(body.error.message).toBe(`The control plane had an internal error (request ${body.error.requestId}).`);
      expect(response.headers.get('x-request-id')).toBe(body.error.requestId);
      expect(text).not.toContain(secret);
      expect(text).not.toContain('createdAt');
      const line = logged.find((entry) => entry.includes(body.error.requestId));
      expect(line).toContain('ControlPlaneOutputError');
      expect(line).toContain('The result of jobs.get from this control plane does not match its schema at $.title');
      expect(line).toContain('$.createdAt');
      // Through the HTTP client: the typed 500, not retried forever (jobs.get is retry-safe, so it is retried `retries` times).
      const client = createHttpControlPlaneClient({ url: server.url, retries: 1, retryDelayMs: 1 });
      await expect(client.jobs.get({ agentId: 'a', jobId: job.id })).rejects.toMatchObject({ code: 'internal_error' });
      // The other calls are untouched.
      expect((await client.jobs.list({ agentId: 'a' })).map((listed) => listed.id)).toEqual([job.id]);
      await client.close();
    });
  });

  it('describes every result in the OpenAPI document, the records under components.schemas', () => {
    const document = controlPlaneOpenApi() as {
      paths: Record<string, { post?: { responses: { 200: { content: { 'application/json': { schema: { properties: { result: unknown } } } } } } } }>;
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
    };
    const result = (name: string) => document.paths[`/v1/${name.replace('.', '/')}`]!.post!.responses[200].content['application/json'].schema.properties.result;
    for (const name of Object.keys(RPC_METHODS)) expect(result(name), name).not.toEqual({});
    expect(result('jobs.get')).toEqual({ $ref: '#/components/schemas/JobRecord' });
    expect(result('jobs.list')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/JobRecord' } });
    expect(result('work.claim')).toEqual({ anyOf: [{ $ref: '#/components/schemas/ClaimedJob' }, { type: 'null' }] });
    expect(document.components.schemas.JobRecord!.required).toContain('createdAt');
    expect(document.components.schemas.JobRecord!.properties!.createdAt).toMatchObject({ type: 'string', format: 'date-time' });
    // Every reference points at a schema the document has.
    const references = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]!);
    for (const reference of new Set(references)) expect(document.components.schemas, reference).toHaveProperty([reference]);
  });
});
