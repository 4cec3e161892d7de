import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createControlPlane, createPostgresDriver, type ControlPlane } from '@core/control-plane';
import type { ApprovalRecord } from '@core/control-plane-client';
import { testDatabaseUrl } from '@core/control-plane/testing';
import { functionCallOutputs, lastUserText, reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskTitle, until as waitUntil } from '@core/worker/testing';
import { runCliProcess, spawnCli, type CliProcess } from '../../__fixtures__/spawn-cli.js';

// A held call survives its worker: `ankole worker` processes and `ankole approvals` on one PostgreSQL database.
const DATABASE_URL = testDatabaseUrl();

/** The command a job's turn runs, by its prompt. */
const COMMANDS: Record<string, string> = {
  'append a line': 'echo ran >> runs.txt && wc -l < runs.txt',
  // Long enough to kill the worker while it runs.
  'append slowly': 'echo ran >> slow.txt && sleep 6 && echo finished',
};

describe('approvals in background jobs, on PostgreSQL', () => {
  let model: TestModelServer;
  let scratch: string;
  let schema: string;
  let plane: ControlPlane;
  const processes: CliProcess[] = [];

  beforeAll(async () => {
    // A job's turn runs its prompt's command through `command`, then reports what the call returned; a workflow task's
    // turn submits its result.
    model = await startTestModelServer({
      script: [],
      onExhausted: (request) => {
        const [output] = functionCallOutputs(request);
        if (taskTitle(request) !== undefined) return output === undefined ? reply.functionCalls([{ name: 'submit_result', arguments: { text: 'tidied' } }]) : reply.text('Submitted.');
        const command = COMMANDS[lastUserText(request) ?? ''] ?? 'true';
        if (output === undefined) return reply.functionCalls([{ name: 'command', callId: 'call_append', arguments: { command } }]);
        return reply.text(`done: ${lastUserText(request)} -> ${JSON.stringify(output.output)}`);
      },
    });
    scratch = await mkdtemp(path.join(tmpdir(), 'ankole-approvals-'));
    // The agent's config holds its `command` calls for a person.
    await mkdir(path.join(scratch, 'config', 'ankole', 'agents'), { recursive: true });
    await writeFile(path.join(scratch, 'config', 'ankole', 'agents', 'default.json'), JSON.stringify({ approvals: { hold: ['command'] } }));
    // Agent "strict" denies its `command` calls outright.
    await writeFile(path.join(scratch, 'config', 'ankole', 'agents', 'strict.json'), JSON.stringify({ approvals: { deny: ['command'] } }));
    // Agent "tasks" holds its workflow tasks' results for a person; agent "fresh" has no config (the default: hold).
    await writeFile(path.join(scratch, 'config', 'ankole', 'agents', 'tasks.json'), JSON.stringify({ approvals: { hold: ['submit_result'] } }));
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
    // Short, so a killed worker's job comes back fast.
    ANKOLE_LEASE_SECONDS: '3',
    ANKOLE_MAINTENANCE_INTERVAL_SECONDS: '1',
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

  const jobStatus = async (jobId: string, agentId = 'default') => (await plane.client.jobs.get({ agentId, jobId })).status;

  it('never runs an approved call twice: a worker killed while the call runs leaves it interrupted, and the model is told so', async () => {
    const job = await plane.client.jobs.start({ agentId: 'default', prompt: 'append slowly' });
    const first = worker('worker-c');
    await until(async () => ((await jobStatus(job.id)) === 'awaiting_approval' ? true : undefined), 'the job to pause');
    const [approval] = await plane.client.approvals.list({ agentId: 'default' });
    expect(approval).toMatchObject({ jobId: job.id, toolName: 'command', status: 'pending' });
    await plane.client.approvals.decide({ agentId: 'default', approvalId: approval!.id, approved: true });
    // The worker resumes the job and starts the approved command; it is killed while the command runs.
    const slow = path.join(scratch, 'data', 'ankole', 'agents', 'default', 'slow.txt');
    await until(async () => (existsSync(slow) ? true : undefined), 'the approved command to start');
    first.child.kill('SIGKILL');
    await first.exited;

    const second = worker('worker-d');
    const done = await until(async () => {
      const stored = await plane.client.jobs.get({ agentId: 'default', jobId: job.id });
      return stored.status === 'succeeded' || stored.status === 'failed' ? stored : undefined;
    }, 'the job to finish on another worker', 60_000);
    expect(done).toMatchObject({ status: 'succeeded', workerId: 'worker-d' });
    // The model heard that the call may or may not have taken effect; the command ran once.
    expect(done.finalAnswer).toContain('not known whether this approved call took effect');
    expect(await readFile(slow, 'utf8')).toBe('ran\n');
    second.child.kill('SIGTERM');
    await second.exited;
  }, 120_000);

  it('`ankole approvals deny --reason` is a person\'s denial: the model hears the reason, the worker\'s line and the transcript say a person denied it; a config deny rule is the config\'s', async () => {
    const job = await plane.client.jobs.start({ agentId: 'default', prompt: 'append a line' });
    const strict = await plane.client.jobs.start({ agentId: 'strict', prompt: 'append a line' });
    const cli = worker('worker-g');
    await until(async () => ((await jobStatus(job.id)) === 'awaiting_approval' ? true : undefined), 'the job to pause');
    const [approval] = await plane.client.approvals.list({ agentId: 'default' });
    expect(approval).toMatchObject({ jobId: job.id, status: 'pending' });
    const denied = await runCliProcess(['approvals', 'deny', approval!.id, '--reason', 'not on a Friday'], env());
    expect(denied.code).toBe(0);
    const done = await until(async () => {
      const stored = await plane.client.jobs.get({ agentId: 'default', jobId: job.id });
      return stored.status === 'succeeded' ? stored : undefined;
    }, 'the resumed job to finish');
    // The model's answer quotes the output it got for the call.
    expect(done.finalAnswer).toContain('not run: a person declined to approve this call of \\"command\\". Reason: not on a Friday');
    await cli.waitForOutput(`✓ job ${job.id}`);
    expect(cli.stdout()).toMatch(new RegExp(`✓ job ${job.id} .*: succeeded in [^\\n]*, 1 call denied by a person\\n`));
    const shown = await runCliProcess(['jobs', 'show', job.id, '--transcript'], env(), 60_000);
    expect(shown.stdout).toContain('denied by a person: not on a Friday');
    // The resumed attempt's closing line counts the denial.
    expect(shown.stdout).toMatch(/── Completed · [^\n]* · 1 call denied by a person · /);

    const strictDone = await until(async () => {
      const stored = await plane.client.jobs.get({ agentId: 'strict', jobId: strict.id });
      return stored.status === 'succeeded' ? stored : undefined;
    }, 'the strict agent\'s job to finish');
    expect(strictDone.finalAnswer).toContain('the agent\'s configuration does not allow this call of \\"command\\" (rule: approvals.deny in the agent config lists \\"command\\")');
    await cli.waitForOutput(`✓ job ${strict.id}`);
    expect(cli.stdout()).toMatch(new RegExp(`✓ job ${strict.id} .*: succeeded in [^\\n]*, 1 call denied by the config\\n`));
    cli.child.kill('SIGTERM');
    await cli.exited;
  }, 120_000);

  it('holds a workflow task (its workflow waits, `ankole workflows show` says so), and another worker resumes it after approval', async () => {
    const workflow = await plane.client.workflows.start({
      agentId: 'tasks',
      title: 'Tidy up',
      script: `return (await task({ title: 'Tidy', prompt: 'Tidy the folder.', result: { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } } })).text;`,
    });
    const fresh = await plane.client.jobs.start({ agentId: 'fresh', prompt: 'append a line' });
    const first = worker('worker-e');
    const heldTask = await until(async () => {
      const stored = await plane.client.workflows.get({ agentId: 'tasks', workflowId: workflow.id });
      return stored.tasks[0]?.status === 'awaiting_approval' ? stored.tasks[0] : undefined;
    }, 'the task to pause');
    await first.waitForOutput(`⏸ task ${heldTask.id}`);
    // Without a config, a destructive call of background work is held too.
    await until(async () => ((await jobStatus(fresh.id, 'fresh')) === 'awaiting_approval' ? true : undefined), 'the job without a config to pause');
    first.child.kill('SIGTERM');
    await first.exited;

    const shown = await runCliProcess(['workflows', 'show', workflow.id, '--agent', 'tasks'], env());
    expect(shown.stdout).toMatch(/⏸ 1\. Tidy {2}awaiting_approval/);
    expect(shown.stdout).toContain('running');
    const listed = await runCliProcess(['approvals', 'list', '--agent', 'tasks', '--json'], env());
    const [approval] = JSON.parse(listed.stdout) as ApprovalRecord[];
    expect(approval).toMatchObject({ jobId: null, taskId: heldTask.id, workflowId: workflow.id, toolName: 'submit_result', params: { text: 'tidied' } });
    const approved = await runCliProcess(['approvals', 'approve', approval!.id, '--agent', 'tasks'], env());
    expect(approved.stdout).toContain(`the call runs when a worker resumes task ${heldTask.id}`);

    const second = worker('worker-f');
    const done = await until(async () => {
      const stored = await plane.client.workflows.get({ agentId: 'tasks', workflowId: workflow.id });
      return stored.status === 'running' ? undefined : stored;
    }, 'the workflow to finish');
    expect(done).toMatchObject({ status: 'succeeded', result: 'tidied' });
    expect(done.tasks[0]).toMatchObject({ status: 'succeeded', workerId: 'worker-f', attempts: 2 });
    second.child.kill('SIGTERM');
    await second.exited;
  }, 120_000);
});
