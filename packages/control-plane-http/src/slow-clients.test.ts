import net from 'node:net';
import type { ControlPlane } from '@core/control-plane';
import { controlPlanes } from '@core/control-plane/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAccessTokens, type AccessTokens } from './access-tokens.js';
import { serveControlPlane, type ControlPlaneServer, type ServeControlPlaneOptions } from './serve-control-plane.js';

/** A raw TCP client: what the server sent, and whether it closed the connection. */
function connect(url: string): Promise<{ socket: net.Socket; received: () => string; closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => resolve({ socket, received: () => Buffer.concat(chunks).toString('utf8'), closed }));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
  });
}

/** Writes `text` a few bytes at a time every `everyMs` until the connection closes or the text ends; the bytes written. */
async function trickle(socket: net.Socket, text: string, everyMs: number): Promise<number> {
  let written = 0;
  while (written < text.length && !socket.destroyed && socket.writable) {
    socket.write(text.slice(written, written + 2));
    written += 2;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return written;
}

describe('the HTTP control plane cuts off slow and idle clients (PGlite)', () => {
  const planes = controlPlanes('pglite');
  let plane: ControlPlane;
  let tokens: AccessTokens;
  let server: ControlPlaneServer;
  let token: string;
  const logged: string[] = [];

  const start = (options: Partial<ServeControlPlaneOptions>) =>
    serveControlPlane({ client: plane.client, authenticate: (given) => (given === undefined ? undefined : tokens.verify(given)), port: 0, log: (line) => logged.push(line), ...options });

  // One control plane for the file (these tests only need a token); each test starts its own server.
  beforeAll(async () => {
    plane = await planes.open();
    tokens = createAccessTokens({ driver: plane.driver, schema: plane.schema });
    token = (await tokens.create({ kind: 'worker' })).token;
  });
  beforeEach(() => {
    logged.length = 0;
  });
  afterEach(async () => {
    await (server as ControlPlaneServer | undefined)?.close();
  });
  afterAll(async () => {
    await planes.cleanup();
    await planes.close();
  });

  it('closes a connection whose headers have not all come within headersTimeoutMs', async () => {
    server = await start({ headersTimeoutMs: 300 });
    const client = await connect(server.url);
    const headers = `POST /v1/jobs/list HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nX-Pad: ${'p'.repeat(400)}\r\n\r\n`;
    const written = await trickle(client.socket, headers, 10);
    await client.closed;
    expect(written).toBeLessThan(headers.length);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection whose body, with a valid token, has not all come within requestTimeoutMs', async () => {
    server = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const client = await connect(server.url);
    const body = `{"agentId":"a","pad":"${'x'.repeat(2000)}"}`;
    client.socket.write(`POST /v1/jobs/list HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    const written = await trickle(client.socket, body, 10);
    await client.closed;
    expect(written).toBeLessThan(body.length);
  });

  it('closes an idle kept-alive connection after keepAliveTimeoutMs, and still answers a long poll longer than requestTimeoutMs', async () => {
    server = await start({ headersTimeoutMs: 200, requestTimeoutMs: 300, keepAliveTimeoutMs: 200 });
    const client = await connect(server.url);
    const body = JSON.stringify({ workerId: 'w', waitMs: 1200 });
    client.socket.write(`POST /v1/work/claim HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200[\s\S]*keep-alive[\s\S]*\{"result":null\}$/i);
  });

  it('closes connections past maxConnectionsPerAddress at once, keeping the others', async () => {
    server = await start({ maxConnectionsPerAddress: 3 });
    const open = await Promise.all([1, 2, 3].map(() => connect(server.url)));
    const extra = await connect(server.url);
    await extra.closed;
    expect(extra.received()).toBe('');
    expect(open.map((client) => client.socket.destroyed)).toEqual([false, false, false]);
    for (const client of open) client.socket.destroy();
    await Promise.all(open.map((client) => client.closed));
    const again = await fetch(`${server.url}/v1/health`);
    expect(again.status).toBe(200);
  });

  it('answers wrong tokens 401 up to a budget per address, then 429 logged once; a right token still goes through', async () => {
    server = await start({ wrongTokenRatePerSecond: 0.001, wrongTokenBurst: 3 });
    const statuses: number[] = [];
    for (let index = 0; index < 8; index += 1) {
      statuses.push((await fetch(`${server.url}/v1/jobs/list`, { method: 'POST', body: '{}', headers: { authorization: `Bearer ank_guess${index}` } })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
    expect(logged.filter((line) => line.includes('→ 429'))).toHaveLength(1);
    const right = await fetch(`${server.url}/v1/jobs/list`, { method: 'POST', body: '{"agentId":"a"}', headers: { authorization: `Bearer ${token}` } });
    expect(right.status).toBe(200);
  });
});
