import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createControlPlane, createPostgresDriver, type ControlPlane } from '@core/control-plane';
import type { WorkflowDetails, WorkflowRecord } from '@core/control-plane-client';
import { testDatabaseUrl } from '@core/control-plane/testing';
import type { TestModelServer } from '@core/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_WORKFLOW_SCRIPT, startWorkflowModel, until as waitUntil } from '@core/worker/testing';
import { runCliProcess, spawnCli, type CliProcess } from '../../__fixtures__/spawn-cli.js';

// `ankole workflows` and `ankole worker` as real processes: on PostgreSQL (DATABASE_URL) and on the embedded database.
const DATABASE_URL = testDatabaseUrl();

let model: TestModelServer;
let scratch: string;
let scriptFile: string;
const processes: CliProcess[] = [];

beforeAll(async () => {
  model = await startWorkflowModel({ slowMs: 60_000 });
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-workflows-cli-'));
  scriptFile = path.join(scratch, 'research.js');
  await writeFile(scriptFile, EXAMPLE_WORKFLOW_SCRIPT);
});
afterAll(async () => {
  await model.close();
  await rm(scratch, { recursive: true, force: true });
});
afterEach(async () => {
  for (const cli of processes.splice(0)) {
    if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
    await cli.exited;
  }
});

function baseEnv(): Record<string, string> {
  return { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: model.baseURL, XDG_DATA_HOME: scratch, HOME: scratch, ANKOLE_LEASE_SECONDS: '5', ANKOLE_MAINTENANCE_INTERVAL_SECONDS: '1' };
}

function worker(env: Record<string, string>, ...args: string[]): CliProcess {
  const cli = spawnCli(['worker', '--worker-id', 'wf-worker', '--poll-interval-ms', '100', '--concurrency', '2', ...args], env);
  processes.push(cli);
  return cli;
}

const until = <T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 45_000) => waitUntil(check, what, timeoutMs, 100);

describe('ankole workflows on PostgreSQL', () => {
  let schema: string;
  let plane: ControlPlane;
  beforeAll(async () => {
    schema = `t_${randomBytes(6).toString('hex')}`;
    plane = await createControlPlane({ databaseUrl: DATABASE_URL, schema, background: false });
  });
  afterAll(async () => {
    await plane.close();
    const driver = createPostgresDriver({ connectionString: DATABASE_URL });
    await driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`);
    await driver.close();
  });
  const env = () => ({ ...baseEnv(), DATABASE_URL, ANKOLE_DB_SCHEMA: schema });

  it('starts the example workflow from a file, a real `ankole worker` runs it to its result, and `show` draws the task tree', async () => {
    const started = Date.now();
    const start = await runCliProcess(['workflows', 'start', '--script', scriptFile, '--input', '{"topics":["anemones","crabs"]}', '--json'], env());
    expect(start.stderr).toBe('');
    expect(start.code).toBe(0);
    const workflow = JSON.parse(start.stdout) as WorkflowRecord;
    expect(workflow).toMatchObject({ title: 'research', status: 'running', agentId: 'default', input: { topics: ['anemones', 'crabs'] } });

    const cli = worker(env());
    const done = await until(async () => {
      const stored = await plane.client.workflows.get({ agentId: 'default', workflowId: workflow.id });
      return stored.status === 'running' ? undefined : stored;
    }, 'the workflow to finish');
    const elapsed = Date.now() - started;
    expect(done).toMatchObject({ status: 'succeeded', result: { summary: '2 notes summarised', count: 2 }, taskCount: 3 });
    await cli.waitForOutput(`succeeded`);
    expect(cli.stdout()).toMatch(new RegExp(`✓ task \\S+ \\(workflow ${workflow.id}, agent default\\) "Summarise": result stored in`));
    console.log(`example workflow through a real worker process on PostgreSQL: ${elapsed} ms from \`ankole workflows start\` to succeeded, ${done.replays} replays`);

    const show = await runCliProcess(['workflows', 'show', workflow.id], env());
    expect(show.code).toBe(0);
    const lines = show.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`Workflow ${workflow.id} "research" (agent default)`);
    expect(lines[1]).toMatch(new RegExp(`^✓ succeeded in \\d+\\.\\d s, ${done.replays} replay\\(s\\), 3 task\\(s\\)$`));
    expect(lines[2]).toBe('input: {"topics":["anemones","crabs"]}');
    expect(lines.slice(3)).toEqual([
      expect.stringMatching(/^├─ ✓ 1\. Research anemones {2}succeeded \d+\.\d s$/),
      '│     result: {"facts":["anemones fact 1","anemones fact 2","anemones fact 3"]}',
      expect.stringMatching(/^├─ ✓ 2\. Research crabs {2}succeeded \d+\.\d s$/),
      '│     result: {"facts":["crabs fact 1","crabs fact 2","crabs fact 3"]}',
      expect.stringMatching(/^└─ ✓ 3\. Summarise {2}succeeded \d+\.\d s$/),
      '      result: {"text":"2 notes summarised"}',
      expect.stringMatching(/^result: \{/),
      'log:',
      expect.stringMatching(/^ {2}\d\d:\d\d:\d\d collected 2 notes$/),
    ]);
    expect(JSON.parse(lines[9]!.slice('result: '.length))).toEqual({ summary: '2 notes summarised', count: 2 });
    const shown = JSON.parse((await runCliProcess(['workflows', 'show', workflow.id, '--json'], env())).stdout) as WorkflowDetails;
    expect(shown.tasks.map((task) => task.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  }, 90_000);

  it('`cancel` stops a running task turn in the worker; `list` shows both workflows', async () => {
    const slowScript = path.join(scratch, 'slow.js');
    await writeFile(slowScript, "return await task({ title: 'Slow survey', prompt: 'Survey everything.', result: { type: 'object', additionalProperties: false, required: ['ok'], properties: { ok: { type: 'boolean' } } } });\n");
    const start = await runCliProcess(['workflows', 'start', '--script', slowScript, '--title', 'Survey', '--notify'], env());
    expect(start.code).toBe(0);
    const id = /^Started workflow (\S+);/.exec(start.stdout)?.[1];
    expect(start.stdout).toContain('notify:  a turn for the agent with the outcome when it finishes');
    const cli = worker(env());
    await cli.waitForOutput('"Slow survey": running', 30_000);

    const cancel = await runCliProcess(['workflows', 'cancel', id!], env());
    expect(cancel).toMatchObject({ code: 0 });
    expect(cancel.stdout).toContain(`Workflow ${id} is cancelled.`);
    await cli.waitForOutput('"Slow survey": cancelled, turn stopped after', 20_000);

    const list = await runCliProcess(['workflows', 'list'], env());
    const rows = list.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^ID +STATUS +TASKS +REPLAYS +CREATED +TITLE$/);
    expect(rows.slice(1).map((row) => row.split(/ {2,}/).filter((cell) => cell !== '')).map((cells) => [cells[1], cells[2], cells.at(-1)])).toEqual([
      ['cancelled', '1', 'Survey'],
      ['succeeded', '3', 'research'],
    ]);
    const listed = JSON.parse((await runCliProcess(['workflows', 'list', '--status', 'cancelled', '--json'], env())).stdout) as WorkflowRecord[];
    expect(listed.map((entry) => entry.id)).toEqual([id]);
  }, 90_000);

  it('SIGTERM with no grace hands a running task back to the queue and exits 0', async () => {
    const slowScript = path.join(scratch, 'slow-again.js');
    await writeFile(slowScript, "return await task({ title: 'Slow census', prompt: 'Count everything.', result: { type: 'object', additionalProperties: false, required: ['n'], properties: { n: { type: 'number' } } } });\n");
    const start = await runCliProcess(['workflows', 'start', '--script', slowScript, '--json'], env());
    const workflow = JSON.parse(start.stdout) as WorkflowRecord;
    const cli = worker(env(), '--shutdown-grace-seconds', '0');
    await cli.waitForOutput('"Slow census": running', 30_000);
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
    expect(cli.stdout()).toMatch(/↩ task \S+ \(workflow \S+, agent default\) "Slow census": handed back to the queue/);
    expect(cli.stdout()).toMatch(/workflow tasks: 0 succeeded, 0 failed, 0 cancelled, 1 handed back, 0 held for approval;/);
    const stored = await plane.client.workflows.get({ agentId: 'default', workflowId: workflow.id });
    expect(stored.status).toBe('running');
    expect(stored.tasks.map((task) => task.status)).toEqual(['queued']);
    await plane.client.workflows.cancel({ agentId: 'default', workflowId: workflow.id });
  }, 90_000);

  it('`show` says why a task failed for its result schema: refused in the advance that reached it, or by the worker\'s submit_result', async () => {
    const closed = { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } };
    const open = { type: 'object', properties: { summary: { type: 'string' } } };
    const twoSteps = path.join(scratch, 'two-steps.js');
    await writeFile(twoSteps, `const { text } = await task({ title: 'Collect', prompt: 'Collect notes.', result: ${JSON.stringify(closed)} });\nreturn await task({ title: 'summarise', prompt: 'Sum up ' + text, result: ${JSON.stringify(open)} });\n`);
    // The first task's schema is closed, so start accepts it; the later one is refused when the script reaches it.
    const start = await runCliProcess(['workflows', 'start', '--script', twoSteps, '--json'], env());
    expect(start.code).toBe(0);
    const refused = JSON.parse(start.stdout) as WorkflowRecord;
    await plane.client.advances.runNext({ workerId: 'w' });
    const collect = (await plane.client.tasks.claim({ workerId: 'w' }))!;
    await plane.client.tasks.submit({ taskId: collect.id, leaseToken: collect.leaseToken, result: { text: 'notes' } });
    await plane.client.advances.runNext({ workerId: 'w' });
    const shownRefused = await runCliProcess(['workflows', 'show', refused.id], env());
    expect(shownRefused.code).toBe(0);
    const refusedLines = shownRefused.stdout.trimEnd().split('\n');
    expect(refusedLines[1]).toMatch(/^✗ failed in .*, 1 task\(s\)$/);
    expect(refusedLines.at(-1)).toMatch(
      /^error: TypeError: task\(\) "summarise": the result schema is not a closed schema \(at \$: objects must set "additionalProperties": false in strict mode; .*\), so no worker could submit its result; fix it in the script\.$/,
    );

    // A task stored before the control plane checked schemas (an older version): the worker's submit_result refuses it.
    const oneStep = path.join(scratch, 'one-step.js');
    await writeFile(oneStep, `return await task({ title: 'summarise', prompt: 'Sum up.', result: ${JSON.stringify(closed)} });\n`);
    const stored = JSON.parse((await runCliProcess(['workflows', 'start', '--script', oneStep, '--json'], env())).stdout) as WorkflowRecord;
    await plane.client.advances.runNext({ workerId: 'w' });
    const older = `return await task({ title: 'summarise', prompt: 'Sum up.', result: ${JSON.stringify(open)} });\n`;
    await plane.driver.query(`UPDATE ${schema}.workflow SET script = $2 WHERE id = $1`, [stored.id, older]);
    await plane.driver.query(`UPDATE ${schema}.task SET result_schema = $2 WHERE workflow_id = $1`, [stored.id, JSON.stringify(open)]);
    const cli = worker(env());
    await until(async () => ((await plane.client.workflows.get({ agentId: 'default', workflowId: stored.id })).status === 'failed' ? true : undefined), 'the workflow to fail');
    cli.child.kill('SIGTERM');
    await cli.exited;
    const shown = await runCliProcess(['workflows', 'show', stored.id], env());
    const lines = shown.stdout.trimEnd().split('\n');
    expect(lines.slice(3)).toEqual([
      expect.stringMatching(/^└─ ✗ 1\. summarise {2}failed /),
      expect.stringMatching(
        /^task "summarise" failed: its result schema cannot be used by submit_result, so no result could be submitted \(at \$: .*"additionalProperties": false.*\); fix the schema in the workflow script's task\(\) call as each problem says\.$/,
      ),
      // Its replay asks task() for that schema again: refused by the control plane's check.
      expect.stringMatching(/^error: TypeError: task\(\) "summarise": the result schema is not a closed schema /),
    ]);
    console.log(`workflows show of a task the worker failed for its schema:\n${shown.stdout}`);
  }, 90_000);
});

describe('ankole workflows on the embedded database', () => {
  // One folder for both tests: creating a PGlite database takes long on a busy machine (the CLI gets EMBEDDED_MS).
  const EMBEDDED_MS = 120_000;
  const dataDir = () => path.join(scratch, 'db');

  it('a workflow started with --data-dir is run by a worker on the same folder, then shown', async () => {
    const env = baseEnv();
    const start = await runCliProcess(['workflows', 'start', '--data-dir', dataDir(), '--script', scriptFile, '--input', '{"topics":["kelp"]}', '--title', 'Kelp'], env, EMBEDDED_MS);
    // The folder is new: one line says what the first seconds are spent on.
    expect(start.stderr).toBe(`ankole: Creating the embedded database in ${dataDir()} (first use, a few seconds)…\n`);
    const id = /^Started workflow (\S+);/.exec(start.stdout)![1]!;
    const cli = worker(env, '--data-dir', dataDir());
    await cli.waitForOutput(`⟳ workflow ${id} (agent default): advanced in`, EMBEDDED_MS);
    await until(async () => (new RegExp(`workflow ${id} .*, succeeded`).test(cli.stdout()) ? true : undefined), 'the workflow to succeed', EMBEDDED_MS);
    // Durations are rounded: "advanced in 194 ms", never "194.19769900000028 ms".
    const advances = cli.stdout().match(/advanced in \S+ \S+,/g) ?? [];
    expect(advances.length).toBeGreaterThan(0);
    for (const advance of advances) expect(advance).toMatch(/^advanced in (\d+ ms|\d+\.\d s),$/);
    // A user's typos through the worker's socket: each is one line on the worker's console, no stack trace.
    const unknownId = '65cd0000-0000-4000-8000-000000000000';
    const typos = [['approvals', 'show', '65cd'], ['approvals', 'approve', unknownId], ['workflows', 'show', unknownId], ['brain', 'show', '65cd'], ['jobs', 'cancel', unknownId]];
    for (const typo of typos) expect((await runCliProcess([...typo, '--data-dir', dataDir()], env, EMBEDDED_MS)).code).toBe(2);
    const logged = cli.stderr().split('\n').filter((line) => line.includes('65cd'));
    expect(logged.length).toBeGreaterThanOrEqual(3);
    expect(logged.length).toBeLessThanOrEqual(typos.length);
    for (const line of logged) expect(line).toMatch(/^\[control-plane\] request \S+ POST \/v1\/\S+ → 404 \w+: /);
    expect(cli.stderr()).not.toMatch(/^\s+at /m);
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code).toBe(0);
    expect(cli.stdout()).toMatch(/workflow tasks: 2 succeeded, 0 failed, 0 cancelled, 0 handed back, 0 held for approval; \d+ advances?\./);

    const show = await runCliProcess(['workflows', 'show', id, '--data-dir', dataDir()], env, EMBEDDED_MS);
    expect(show.stdout).toContain('✓ succeeded in');
    expect(show.stdout).toMatch(/^result: \{.*"summary":"1 notes summarised"/m);
  }, 3 * EMBEDDED_MS);

  it('refuses bad input with one sentence each: no --script, --input that is not JSON, a script that does not compile', async () => {
    const env = baseEnv();
    const missing = await runCliProcess(['workflows', 'start', '--data-dir', dataDir()], env);
    expect(missing).toMatchObject({ code: 2, stderr: 'ankole: Give the workflow script: ankole workflows start --script FILE.\n' });
    const badInput = await runCliProcess(['workflows', 'start', '--data-dir', dataDir(), '--script', scriptFile, '--input', '{topics:'], env);
    expect(badInput.code).toBe(2);
    expect(badInput.stderr).toMatch(/^ankole: --input of `ankole workflows start` must be JSON/);
    const brokenFile = path.join(scratch, 'broken.js');
    await writeFile(brokenFile, 'const x = ;\n');
    const broken = await runCliProcess(['workflows', 'start', '--data-dir', dataDir(), '--script', brokenFile], env, EMBEDDED_MS);
    expect(broken.code).toBe(2);
    expect(broken.stderr.split('\n').filter((line) => line !== '')).toHaveLength(1);
    // A first task whose result schema is not closed: refused at start, not on a worker.
    const looseFile = path.join(scratch, 'loose.js');
    await writeFile(looseFile, "return await task({ title: 'Loose', prompt: 'Count.', result: { type: 'object', properties: { n: { type: 'number' } } } });\n");
    const loose = await runCliProcess(['workflows', 'start', '--data-dir', dataDir(), '--script', looseFile], env, EMBEDDED_MS);
    expect(loose.code).toBe(2);
    expect(loose.stderr).toMatch(/^ankole: The workflow's first tasks cannot run: task\(\) "Loose": the result schema is not a closed schema \(at \$: .*\), so no worker could submit its result; fix it in the script\.\n$/);
    const unknown = await runCliProcess(['workflows', 'show', 'wf-nope', '--data-dir', dataDir()], env, EMBEDDED_MS);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('"wf-nope" is not a workflow id: give the id, or its first 4 characters or more.');
  }, 3 * EMBEDDED_MS);
});
