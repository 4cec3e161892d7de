import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/*
 * The entry point, run as built (dist/start.js) on a fresh embedded database: it serves, answers the health check,
 * and stops cleanly on SIGTERM. In CI turbo builds before it tests; locally, run `npx tsup` first: without a dist
 * newer than every source file this is skipped (and says why).
 */
const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(appDir, 'dist', 'start.js');
const reason = !existsSync(built)
  ? 'dist/start.js is missing'
  : statSync(built).mtimeMs < statSync(path.join(appDir, 'src', 'start.ts')).mtimeMs
    ? 'dist/start.js is older than src/start.ts'
    : undefined;
if (reason !== undefined) console.warn(`start.test.ts skipped: ${reason}; run \`npx tsup\` in apps/control-plane to run it.`);

let dataDir: string | undefined;
afterEach(async () => {
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
});

describe.skipIf(reason !== undefined)('the control plane entry point', () => {
  it('serves the embedded database on a free port and stops on SIGTERM', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'ankole-start-'));
    const child = spawn(process.execPath, [built], {
      env: { ...process.env, DATABASE_URL: '', ANKOLE_DATA_DIR: dataDir, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /Serving the control plane at (\S+)/.exec(stdout);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      void exited.then((code) => reject(new Error(`exited ${code} before serving: ${stderr}`)));
    });
    const health = await fetch(`${url}/v1/health`);
    expect(await health.json()).toEqual({ ok: true });
    expect((await fetch(`${url}/v1/jobs/list`, { method: 'POST', body: '{}' })).status).toBe(401);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout).toContain('Stopped.');
  }, 60_000);
});
