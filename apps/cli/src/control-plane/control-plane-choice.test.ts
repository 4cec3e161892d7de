import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultDataDir } from '@core/control-plane';
import { functionCallOutputs, reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliProcess } from '../__fixtures__/spawn-cli.js';
import { chooseControlPlane, defaultEmbeddedDataDir } from './control-plane-choice.js';

// Creating the embedded database takes tens of seconds on a busy machine; opening it again, a few.
const EMBEDDED_MS = 120_000;

describe('chooseControlPlane: one rule, first match wins, options before variables', () => {
  const cwd = '/work';
  const env = { XDG_DATA_HOME: '/data', ANKOLE_CONTROL_PLANE_URL: 'http://cp:7070', DATABASE_URL: 'postgres://db/x', ANKOLE_DATA_DIR: 'env-dir' };

  it('--control-plane, ANKOLE_CONTROL_PLANE_URL, --database-url, DATABASE_URL, --data-dir, ANKOLE_DATA_DIR, the default', () => {
    const all = { controlPlaneUrl: 'http://flag:7070', databaseUrl: 'postgres://flag/x', dataDir: 'flag-dir', cwd };
    expect(chooseControlPlane({ ...all, env })).toMatchObject({ kind: 'http', url: 'http://flag:7070', source: '--control-plane' });
    expect(chooseControlPlane({ ...all, controlPlaneUrl: undefined, env })).toMatchObject({ kind: 'http', url: 'http://cp:7070', source: 'ANKOLE_CONTROL_PLANE_URL' });
    const noUrl = { ...env, ANKOLE_CONTROL_PLANE_URL: '' };
    expect(chooseControlPlane({ ...all, controlPlaneUrl: undefined, env: noUrl })).toMatchObject({ kind: 'postgres', databaseUrl: 'postgres://flag/x', source: '--database-url' });
    expect(chooseControlPlane({ cwd, env: noUrl })).toMatchObject({ kind: 'postgres', databaseUrl: 'postgres://db/x', source: 'DATABASE_URL' });
    const embedded = { ...noUrl, DATABASE_URL: ' ' };
    expect(chooseControlPlane({ cwd, dataDir: 'flag-dir', env: embedded })).toMatchObject({ kind: 'embedded', dataDir: '/work/flag-dir', source: '--data-dir' });
    expect(chooseControlPlane({ cwd, env: embedded })).toMatchObject({ kind: 'embedded', dataDir: '/work/env-dir', source: 'ANKOLE_DATA_DIR' });
    expect(chooseControlPlane({ cwd, env: { XDG_DATA_HOME: '/data' } })).toEqual({ kind: 'embedded', dataDir: '/data/ankole/pglite', source: 'default', exists: false });
  });

  it('the default folder is the control plane package\'s', () => {
    for (const env of [{ XDG_DATA_HOME: '/somewhere' }, { XDG_DATA_HOME: '' }, {}]) expect(defaultEmbeddedDataDir(env)).toBe(defaultDataDir(env));
  });
});

describe('ankole run and ankole jobs on the default embedded database', () => {
  let scratch: string;
  let env: Record<string, string>;
  let server: TestModelServer | undefined;

  beforeEach(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'ankole-choice-'));
    await mkdir(path.join(scratch, 'home'));
    env = { HOME: scratch, XDG_DATA_HOME: path.join(scratch, 'data'), XDG_CONFIG_HOME: path.join(scratch, 'config'), ANKOLE_APPROVE: 'auto' };
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await rm(scratch, { recursive: true, force: true });
  });

  it('before the database exists, a plain turn neither creates it nor gets the control-plane tools', async () => {
    server = await startTestModelServer({ script: [reply.text('Hello.')] });
    const run = await runCliProcess(['run', '--home', path.join(scratch, 'home'), 'hi'], { ...env, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseURL });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const names = server.requests[0]?.body.tools.map((tool: { name: string }) => tool.name);
    expect(names).not.toContain('list_background_jobs');
    expect(existsSync(path.join(scratch, 'data', 'ankole', 'pglite'))).toBe(false);
  });

  it('a turn sees the job `ankole jobs start` queued, with no option: both use the default folder', async () => {
    const start = await runCliProcess(['jobs', 'start', '--title', 'Tidy', 'Tidy the notes folder', '--json'], env, EMBEDDED_MS);
    // The first use says what the seconds are spent on.
    expect(start.stderr).toBe(`ankole: Creating the embedded database in ${path.join(scratch, 'data', 'ankole', 'pglite')} (first use, a few seconds)…\n`);
    expect(start.code).toBe(0);
    const job = JSON.parse(start.stdout) as { id: string };
    server = await startTestModelServer({
      script: [reply.functionCalls([{ name: 'list_background_jobs', arguments: {} }]), reply.text('One job is queued.')],
    });
    const run = await runCliProcess(['run', '--home', path.join(scratch, 'home'), 'What is queued?'], { ...env, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseURL }, EMBEDDED_MS);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`schedules and jobs in the embedded database in ${path.join(scratch, 'data', 'ankole', 'pglite')}`);
    const [output] = functionCallOutputs(server.requests.at(-1)!);
    expect(output?.output).toContain(job.id);
    expect(output?.output).toContain('Tidy');
  }, 2 * EMBEDDED_MS + 10_000);
});
