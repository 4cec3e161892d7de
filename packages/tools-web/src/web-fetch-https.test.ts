import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createWebFetchTool } from './web-fetch-tool.js';

// A real TLS server on 127.0.0.1 with a self-signed certificate for "secure.test", made by openssl.
let directory: string;
let certificate: string;
let server: Server;
let port: number;
const serverNames: Array<string | false> = [];

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'tools-web-tls-'));
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=secure.test', '-addext', 'subjectAltName=DNS:secure.test',
      '-keyout', join(directory, 'key.pem'), '-out', join(directory, 'cert.pem')],
    { stdio: 'ignore', timeout: 20_000 },
  );
  certificate = readFileSync(join(directory, 'cert.pem'), 'utf8');
  server = createServer({ key: readFileSync(join(directory, 'key.pem')), cert: certificate }, (request, response) => {
    serverNames.push((request.socket as { servername?: string | false }).servername ?? false);
    response.writeHead(200, { 'Content-Type': 'text/plain' });
    response.end(`secure hello for ${request.headers.host}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(directory, { recursive: true, force: true });
});

const context = () => ({ signal: AbortSignal.timeout(10_000), callId: 'c1', toolName: 'web_fetch' });
const lookup = async (hostname: string) => (hostname === 'secure.test' ? [{ address: '127.0.0.1', family: 4 as const }] : []);

describe('web_fetch over https', () => {
  test('connects to the pinned address while verifying the certificate for the host name (SNI)', async () => {
    const tool = createWebFetchTool({ allowHosts: ['secure.test'], lookup, extraCA: [certificate] });
    const result = await tool.execute({ url: `https://secure.test:${port}/` }, context());
    expect(result.isError).toBeUndefined();
    expect(result.content).toMatch(new RegExp(`secure hello for secure.test:${port}$`));
    expect(serverNames.at(-1)).toBe('secure.test');
  });

  test('verifies certificates: an untrusted one fails the fetch', async () => {
    const tool = createWebFetchTool({ allowHosts: ['secure.test'], lookup });
    const result = await tool.execute({ url: `https://secure.test:${port}/` }, context());
    expect(result.isError).toBe(true);
    expect(result.content).toContain('fetch_failed');
    expect(result.content).toContain('SELF_SIGNED_CERT');
  });
});
