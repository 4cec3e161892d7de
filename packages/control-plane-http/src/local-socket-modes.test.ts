import { spawn } from 'node:child_process';
import { chmod, lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ControlPlane } from '@core/control-plane';
import { controlPlanes } from '@core/control-plane/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serveControlPlane } from './serve-control-plane.js';

const health = (socketPath: string) =>
  new Promise<number>((resolve, reject) => {
    http.get({ socketPath, path: '/v1/health' }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    }).on('error', reject);
  });

/** Whether this process may run another as the `nobody` user (root, with util-linux's setpriv). */
const asNobody = process.getuid?.() === 0 && (await new Promise<boolean>((resolve) => spawn('setpriv', ['--version']).on('error', () => resolve(false)).on('close', (code) => resolve(code === 0))));

describe('the control plane on a Unix socket: only its owner can ever connect', () => {
  const planes = controlPlanes('pglite');
  let plane: ControlPlane;
  let folder: string;

  // One control plane for the file (the tests only serve it); a fresh folder for each test.
  beforeAll(async () => {
    plane = await planes.open();
  });
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'ankole-socket-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  afterAll(async () => {
    await planes.cleanup();
    await planes.close();
  });

  it('creates the socket 0600 under umask 000, leaving no folder behind, and removes it on close', async () => {
    const socketPath = path.join(folder, 'db.sock');
    const previous = process.umask(0);
    let server;
    try {
      server = await serveControlPlane({ client: plane.client, authenticate: () => ({ kind: 'local' }), socketPath });
    } finally {
      process.umask(previous);
    }
    const stats = await lstat(socketPath);
    expect(stats.isSocket()).toBe(true);
    expect(stats.mode & 0o777).toBe(0o600);
    expect(await readdir(folder)).toEqual(['db.sock']);
    expect(await health(socketPath)).toBe(200);
    await server.close();
    expect(await readdir(folder)).toEqual([]);
  });

  it.skipIf(!asNobody)('never lets another user connect, even racing the start under umask 000 (as root: a `nobody` process tries)', async () => {
    await chmod(folder, 0o711);
    const socketPath = path.join(folder, 'db.sock');
    // The racer connects again and again for as long as the server starts and stops, and counts what got through.
    const racer = spawn(
      'setpriv',
      [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        process.execPath,
        '-e',
        `const net = require('node:net'); let connected = 0, refused = 0, stop = false;
         process.stdin.on('data', () => { stop = true; });
         const go = () => { if (stop) return; const socket = net.connect(${JSON.stringify(socketPath)});
           socket.on('connect', () => { connected += 1; socket.destroy(); setImmediate(go); });
           socket.on('error', () => { refused += 1; setImmediate(go); }); };
         for (let i = 0; i < 8; i += 1) go();
         process.stdin.on('end', () => { console.log(JSON.stringify({ connected, refused })); process.exit(0); });
         console.log('ready');`,
      ],
      { cwd: '/', stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let output = '';
    racer.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    await new Promise<void>((resolve) => racer.stdout.once('data', () => resolve()));
    const previous = process.umask(0);
    try {
      for (let round = 0; round < 30; round += 1) {
        const server = await serveControlPlane({ client: plane.client, authenticate: () => ({ kind: 'local' }), socketPath });
        await new Promise((resolve) => setTimeout(resolve, 5));
        await server.close();
      }
    } finally {
      process.umask(previous);
    }
    racer.stdin.end();
    await new Promise((resolve) => racer.once('close', resolve));
    const counts = JSON.parse(output.trim().split('\n').at(-1)!) as { connected: number; refused: number };
    console.log(`a nobody racer over 30 starts: ${counts.connected} connections, ${counts.refused} refused`);
    expect(counts.refused).toBeGreaterThan(10);
    expect(counts.connected).toBe(0);
  });
});
