import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createControlPlane, createPostgresDriver, type ApprovalRecord, type ControlPlane } from '@core/control-plane';
import { testDatabaseUrl } from '@core/control-plane/testing';
import { functionCallOutputs, lastUserText, reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess, spawnCli, type CliProcess } from '../__fixtures__/spawn-cli.js';
import { until as waitUntil } from '../__fixtures__/until.js';

// A held call survives its worker: `ankole worker` processes and `ankole approvals` on one PostgreSQL database.
const DATABASE_URL = testDatabaseUrl();

describe('approvals in background jobs, on PostgreSQL', () => {
  let model: TestModelServer;
  let scratch: string;
  let schema: string;
  let plane: ControlPlane;
  const processes: CliProcess[] = [];

  beforeAll(async () => {
    // The job's turn appends a line to a file through `command`, then reports what the call returned.
    model = await startTestModelServer({
      script: [],
      onExhausted: (request) => {
        const [output] = functionCallOutputs(request);
        if (output === undefined) return reply.functionCalls([{ name: 'command', callId: 'call_append', arguments: { command: 'echo ran >> runs.txt && wc -l < runs.txt' } }]);
        return reply.text(`done: ${lastUserText(request)} -> ${JSON.stringify(output.output)}`);
      },
    });
    scratch = await mkdtemp(path.join(tmpdir(), 'ankole-approvals-'));
    // The agent's config holds its `command` calls for a person.
    await mkdir(path.join(scratch, 'config', 'ankole', 'agents'), { recursive: true });
    await writeFile(path.join(scratch, 'config', 'ankole', 'agents', 'default.json'), JSON.stringify({ approvals: { hold: ['command'] } }));
    schema = `t_${randomBytes(6).toString('hex')}`;
    plane = await createControlPlane({ databaseUrl: DATABASE_URL, schema, background: false });
  });
  afterAll(async () => {
    for (const cli of processes) if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
    await plane?.close();
    const driver = createPostgresDriver({ connectionString: DATABASE_URL });
    await driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`);
    await driver.close();
    await model?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  const env = (): Record<string, string> => ({
    DATABASE_URL,
    ANKOLE_DB_SCHEMA: schema,
    OPENAI_API_KEY: 'test',
    OPENAI_BASE_URL: model.baseURL,
    XDG_DATA_HOME: path.join(scratch, 'data'),
    XDG_CONFIG_HOME: path.join(scratch, 'config'),
    HOME: scratch,
  });

  function worker(name: string): CliProcess {
    const cli = spawnCli(['worker', '--worker-id', name, '--poll-interval-ms', '100'], env());
    processes.push(cli);
    return cli;
  }

  const until = <T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 30_000) => waitUntil(check, what, timeoutMs, 100);

  it('pauses the job, survives a worker restart, and `ankole approvals approve` resumes it on another worker: the command runs once', async () => {
    const job = await plane.client.jobs.start({ agentId: 'default', prompt: 'append a line' });
    const first = worker('worker-a');
    await until(async () => ((await plane.client.jobs.get({ agentId: 'default', jobId: job.id })).status === 'awaiting_approval' ? true : undefined), 'the job to pause');
    await first.waitForOutput(`⏸ job ${job.id}`);
    const runs = path.join(scratch, 'data', 'ankole', 'agents', 'default', 'runs.txt');
    expect(existsSync(runs)).toBe(false);

    // The worker that paused it stops; the job stays paused in the database.
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    const listed = await runCliProcess(['approvals', 'list', '--json'], env());
    expect(listed.code).toBe(0);
    const [approval] = JSON.parse(listed.stdout) as ApprovalRecord[];
    expect(approval).toMatchObject({ jobId: job.id, toolName: 'command', status: 'pending', params: { command: 'echo ran >> runs.txt && wc -l < runs.txt' } });
    const shown = await runCliProcess(['approvals', 'show', approval!.id], env());
    expect(shown.stdout).toContain('Running `echo ran >> runs.txt');

    const second = worker('worker-b');
    await second.waitForOutput('started', 30_000);
    const approved = await runCliProcess(['approvals', 'approve', approval!.id], env());
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`Approved ${approval!.id}`);
    const done = await until(async () => {
      const stored = await plane.client.jobs.get({ agentId: 'default', jobId: job.id });
      return stored.status === 'succeeded' ? stored : undefined;
    }, 'the resumed job to finish');
    expect(done.workerId).toBe('worker-b');
    expect(await readFile(runs, 'utf8')).toBe('ran\n');
    expect(done.finalAnswer).toMatch(/^done: append a line -> .*1/);
    // The model was asked twice in all: the held call ran from the stored state, without asking it again.
    expect(model.requests.filter((request) => request.method === 'POST')).toHaveLength(2);
    // A second decision changes nothing.
    const again = await runCliProcess(['approvals', 'deny', approval!.id, '--reason', 'too late'], env());
    expect(again.code).not.toBe(0);
    expect(await readFile(runs, 'utf8')).toBe('ran\n');
    second.child.kill('SIGTERM');
    await second.exited;
  }, 120_000);
});
