import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JobRecord, WorkflowRecord } from '@core/control-plane-client';
import { createControlPlane, createPostgresDriver } from '@core/control-plane';
import { testDatabaseUrl } from '@core/control-plane/testing';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliProcess, spawnCli } from '../__fixtures__/spawn-cli.js';

// The offline demo touches nothing real: no files in a folder meant for a real model, no conversation of a real
// agent, no work of a shared queue, nothing left in the temporary folder.
const DATABASE_URL = testDatabaseUrl();
const schema = `t_${randomBytes(6).toString('hex')}`;
let scratch: string;
let env: Record<string, string>;

beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-demo-isolation-'));
  await mkdir(path.join(scratch, 'tmp'));
  env = { HOME: scratch, XDG_DATA_HOME: path.join(scratch, 'data'), TMPDIR: path.join(scratch, 'tmp') };
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});
afterAll(async () => {
  const driver = createPostgresDriver({ connectionString: DATABASE_URL });
  await driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`);
  await driver.close();
});

describe('the offline demo touches nothing real', () => {
  it("the README's real-model command without a key: the notes folder is untouched, --model is named, nothing kept", async () => {
    const notes = path.join(scratch, 'notes');
    await mkdir(notes);
    const run = await runCliProcess(['run', '--model', 'gpt-5-mini', '--home', notes, 'Summarise the notes in this folder'], env);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe(
      `Running the offline demo model (OPENAI_API_KEY is not set): a scripted local model drives the real tools; your prompt is not sent anywhere. It works in a temporary folder, removed after the turn. (${notes} is left untouched; --model gpt-5-mini needs OPENAI_API_KEY.)`,
    );
    expect(await readdir(notes)).toEqual([]);
    // No conversation of a real agent, no default home, nothing left behind.
    expect(existsSync(env.XDG_DATA_HOME!)).toBe(false);
    expect(await readdir(env.TMPDIR!)).toEqual([]);
  });

  it('the scripted demo writes into a --home it is given, keeps no conversation of the agent and leaves no temporary folder', async () => {
    const home = path.join(scratch, 'demo-home');
    await mkdir(home);
    const run = await runCliProcess(['run', '--demo', '--home', home], env);
    expect(run.code).toBe(0);
    expect(existsSync(path.join(home, 'ankole-demo/notes/README.md'))).toBe(true);
    expect(existsSync(env.XDG_DATA_HOME!)).toBe(false);
    expect(await readdir(env.TMPDIR!)).toEqual([]);
  });

  it('ankole worker --demo never works a shared queue: --database-url is refused; with DATABASE_URL set it uses its own temporary database', async () => {
    const plane = await createControlPlane({ databaseUrl: DATABASE_URL, schema, background: false });
    const shared = await plane.client.jobs.start({ agentId: 'default', prompt: 'real work' });
    const refused = await runCliProcess(['worker', '--demo', '--database-url', DATABASE_URL], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^ankole: ankole worker --demo answers every turn with a canned reply, so it never works a shared queue: leave out --database-url /);

    const worker = spawnCli(['worker', '--demo', '--poll-interval-ms', '100'], { ...env, DATABASE_URL, ANKOLE_DB_SCHEMA: schema });
    try {
      await worker.waitForOutput('give it work with --data-dir', 120_000);
      const dataDir = /give it work with --data-dir (\S+)\.$/m.exec(worker.stdout())![1]!;
      // --wait: queued, then run by the demo worker; the job as it ended, exit 0.
      const waited = await runCliProcess(['jobs', 'start', '--data-dir', dataDir, '--wait', 'tidy the notes'], env, 90_000);
      expect(waited.code).toBe(0);
      expect(waited.stdout).toMatch(/^Queued job (\S+)\.\n/);
      expect(waited.stdout).toContain('status:   succeeded');
      expect(waited.stdout).toContain('(offline demo model) This turn would now work on: "tidy the notes".');
      expect(waited.stderr.split('\n').at(-2)).toMatch(/^✓ job \S+ succeeded\.$/);
      const jobId = /^Queued job (\S+)\./.exec(waited.stdout)![1]!;
      const followed = await runCliProcess(['jobs', 'show', jobId.slice(0, 6), '--follow', '--data-dir', dataDir, '--json'], env, 60_000);
      expect({ code: followed.code, status: (JSON.parse(followed.stdout) as JobRecord).status }).toEqual({ code: 0, status: 'succeeded' });

      const script = path.join(scratch, 'demo.js');
      const result = { type: 'object', additionalProperties: false, required: ['count'], properties: { count: { type: 'integer' } } };
      await writeFile(script, `return await task({ title: 'One', prompt: 'count', result: ${JSON.stringify(result)} });\n`);
      const flow = await runCliProcess(['workflows', 'start', '--data-dir', dataDir, '--script', script, '--wait', '--json'], env, 90_000);
      expect(flow.code).toBe(0);
      const workflow = JSON.parse(flow.stdout) as WorkflowRecord;
      expect(workflow).toMatchObject({ status: 'succeeded', result: { count: 0 } });
      const shown = await runCliProcess(['workflows', 'show', workflow.id.slice(0, 6), '--follow', '--data-dir', dataDir], env, 60_000);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain(`Workflow ${workflow.id} "demo" (agent default)`);
      // Each task's turn, drawn as it ran; --json: the stored events.
      const transcript = await runCliProcess(['workflows', 'show', workflow.id, '--transcript', '--data-dir', dataDir], env, 60_000);
      expect(transcript.code).toBe(0);
      expect(transcript.stdout).toMatch(/^Transcript of task 1\. "One" \(\S+\)/);
      const stored = JSON.parse((await runCliProcess(['workflows', 'show', workflow.id, '--transcript', '--json', '--data-dir', dataDir], env, 60_000)).stdout) as Array<{ title: string; attempts: Array<{ entries: unknown[] }> }>;
      expect(stored.map((task) => task.title)).toEqual(['One']);
      expect(stored[0]!.attempts[0]!.entries.length).toBeGreaterThan(0);
      expect((await plane.client.jobs.get({ agentId: 'default', jobId: shared.id })).status).toBe('queued');
      worker.child.kill('SIGTERM');
      expect((await worker.exited).code).toBe(0);
      expect(await readdir(env.TMPDIR!)).toEqual([]);
    } finally {
      worker.child.kill('SIGKILL');
      await worker.exited;
      await plane.close();
    }
  }, 300_000);
});
