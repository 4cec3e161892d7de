import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createControlPlane, createPostgresDriver, type ControlPlane } from '@core/control-plane';
import type { ControlPlaneClient, TranscriptRecord } from '@core/control-plane-client';
import { testDatabaseUrl } from '@core/control-plane/testing';
import { createOpenAIResponsesGateway } from '@core/runtime';
import { functionCallOutputs, lastUserText, reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '@core/worker/testing';
import { runWorker, type WorkerEvent } from '@core/worker';
import { runCliProcess, spawnCli } from '../../__fixtures__/spawn-cli.js';

// A job's turn leaves its transcript in the control plane: the worker records the events as the turn runs, and
// `ankole jobs show ID --transcript` draws it as `ankole run` draws a live turn (`--json`: the stored events).
const DATABASE_URL = testDatabaseUrl();
const LONG = 'x'.repeat(20_000);

let model: TestModelServer;
let scratch: string;
let schema: string;
let plane: ControlPlane;

beforeAll(async () => {
  // "write…" prompts write a long file, then answer; anything else answers at once.
  model = await startTestModelServer({
    script: [],
    onExhausted: (request) => {
      const prompt = lastUserText(request) ?? '';
      if (prompt.startsWith('write') && functionCallOutputs(request).length === 0) {
        return reply.functionCalls([{ name: 'write_file', arguments: { path: 'long.txt', content: LONG }, callId: 'w1' }], { text: 'Writing it now.' });
      }
      return reply.text(`done: ${prompt}`);
    },
  });
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-transcripts-'));
  schema = `t_${randomBytes(6).toString('hex')}`;
  plane = await createControlPlane({ databaseUrl: DATABASE_URL, schema, background: false });
});
afterAll(async () => {
  await plane.close();
  const driver = createPostgresDriver({ connectionString: DATABASE_URL });
  await driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`);
  await driver.close();
  await model.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('job transcripts', () => {
  it('ankole worker keeps the turn; ankole jobs show ID --transcript draws it, --json gives the events, long outputs cut', async () => {
    const env = { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: model.baseURL, XDG_DATA_HOME: scratch, XDG_CONFIG_HOME: path.join(scratch, 'config'), HOME: scratch, DATABASE_URL, ANKOLE_DB_SCHEMA: schema, TERM: 'dumb' };
    // Background work holds destructive calls for a person unless the agent's config allows them.
    await mkdir(path.join(scratch, 'config', 'ankole', 'agents'), { recursive: true });
    await writeFile(path.join(scratch, 'config', 'ankole', 'agents', 'default.json'), JSON.stringify({ approvals: { allow: ['write_file'] } }));
    const job = await plane.client.jobs.start({ agentId: 'default', prompt: 'write the long file' });
    const worker = spawnCli(['worker', '--poll-interval-ms', '100'], env);
    try {
      await worker.waitForOutput(`✓ job ${job.id}`, 60_000);
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }

    const shown = await runCliProcess(['jobs', 'show', job.id.slice(0, 8), '--transcript'], env, 60_000);
    expect(shown.code).toBe(0);
    const lines = shown.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Transcript of job ${job.id} · attempt 1 · worker \\S+ · started \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d `));
    // As a live turn draws it when piped: the model's words, the call starting and ending, then the summary.
    const body = lines.slice(2).join('\n');
    expect(body).toContain('Writing it now.\n… Writing long.txt\n✓ Created long.txt (1 line, 19.5 KB)');
    expect(body).toContain('done: write the long file');
    expect(body).toMatch(/! \d+ events? kept with long text cut/);
    expect(body).toMatch(/── Completed · 2 steps · 1 tool call · [\d,]+ tokens/);

    const json = await runCliProcess(['jobs', 'show', job.id, '--transcript', '--json'], env, 60_000);
    const transcript = JSON.parse(json.stdout) as TranscriptRecord;
    const events = transcript.attempts[0]!.entries.map((entry) => entry.event);
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['turn.started', 'step.started', 'message.completed', 'activity.started', 'activity.completed', 'usage', 'turn.completed']),
    );
    expect(events.some((event) => event.type === 'text.delta')).toBe(false);
    const started = events.find((event) => event.type === 'activity.started')!;
    expect(started).toMatchObject({ toolName: 'write_file', label: 'Writing long.txt' });
    expect(started.arguments).toMatch(/^\{"path":"long\.txt","content":"x+… \[\d+ more characters left out\]$/);
    expect(events.find((event) => event.type === 'activity.completed')).toMatchObject({ status: 'success', output: expect.stringMatching(/^Created long\.txt/) });
    expect(transcript.attempts[0]).toMatchObject({ attempt: 1, droppedEvents: 0 });
    expect(transcript.attempts[0]!.truncatedEvents).toBeGreaterThanOrEqual(1);

    const none = await runCliProcess(['jobs', 'show', (await plane.client.jobs.start({ agentId: 'default', prompt: 'later' })).id, '--transcript'], env, 60_000);
    expect(none.stdout).toMatch(/^No transcript for job \S+ yet: no worker has run its turn/);
  }, 120_000);

  it('a job paused for approval and resumed has one transcript per claim: the pause, then the rest of the turn', async () => {
    const env = { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: model.baseURL, XDG_DATA_HOME: scratch, XDG_CONFIG_HOME: path.join(scratch, 'no-config'), HOME: scratch, DATABASE_URL, ANKOLE_DB_SCHEMA: schema, TERM: 'dumb' };
    const job = await plane.client.jobs.start({ agentId: 'held', prompt: 'write it after approval' });
    const worker = spawnCli(['worker', '--poll-interval-ms', '100'], env);
    try {
      await worker.waitForOutput(`⏸ job ${job.id}`, 60_000);
      const [approval] = await plane.client.approvals.list({ agentId: 'held' });
      expect((await runCliProcess(['approvals', 'approve', approval!.id, '--agent', 'held'], env, 60_000)).code).toBe(0);
      await worker.waitForOutput(`✓ job ${job.id}`, 60_000);
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
    const shown = await runCliProcess(['jobs', 'show', job.id, '--transcript', '--agent', 'held'], env, 60_000);
    const [first, second] = shown.stdout.split(/^(?=Transcript of job)/m);
    expect(first).toMatch(/^Transcript of job \S+ · attempt 1 · /);
    expect(first).toContain('── Paused: calls wait for approval · 1 step');
    expect(second).toMatch(/^Transcript of job \S+ · attempt 2 · /);
    expect(second).toContain('✓ Created long.txt');
    expect(second).toContain('done: write it after approval');
    expect(second).toMatch(/── Completed · 2 steps · 1 tool call/);
  }, 150_000);

  it("a workflow task's turn keeps its transcript too (ankole worker --demo, on its own database)", async () => {
    const result = { type: 'object', additionalProperties: false, required: ['facts'], properties: { facts: { type: 'array', items: { type: 'string' } } } };
    const script = path.join(scratch, 'facts.js');
    await writeFile(script, `return await task({ title: 'One', prompt: 'find facts', result: ${JSON.stringify(result)} });\n`);
    const env = { XDG_DATA_HOME: scratch, HOME: scratch, TMPDIR: scratch };
    // The demo worker never works a shared queue: it names its own temporary database.
    const worker = spawnCli(['worker', '--demo', '--poll-interval-ms', '100'], env);
    try {
      await worker.waitForOutput('give it work with --data-dir', 120_000);
      const dataDir = /give it work with --data-dir (\S+)\.$/m.exec(worker.stdout())![1]!;
      const started = await runCliProcess(['workflows', 'start', '--agent', 'flows', '--data-dir', dataDir, '--script', script, '--wait', '--json'], env, 90_000);
      expect(started.code).toBe(0);
      const workflowId = (JSON.parse(started.stdout) as { id: string }).id;
      const shown = await runCliProcess(['workflows', 'show', workflowId, '--agent', 'flows', '--transcript', '--json', '--data-dir', dataDir], env, 60_000);
      const [transcript] = JSON.parse(shown.stdout) as Array<{ attempts: Array<{ entries: Array<{ event: { type: string } }> }> }>;
      const events = transcript!.attempts[0]!.entries.map((entry) => entry.event);
      expect(events[0]).toMatchObject({ type: 'turn.started' });
      expect(events.find((event) => event.type === 'activity.completed')).toMatchObject({ toolName: 'submit_result', status: 'success' });
      expect(events.at(-1)).toMatchObject({ type: 'turn.completed' });
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  }, 240_000);

  it('a transcript that cannot be stored never fails the job: the worker logs it', async () => {
    const job = await plane.client.jobs.start({ agentId: 'broken', prompt: 'hello' });
    const failing: ControlPlaneClient = {
      ...plane.client,
      transcripts: { ...plane.client.transcripts, append: () => Promise.reject(new Error('the transcript table is gone')) },
    };
    const stop = new AbortController();
    const events: WorkerEvent[] = [];
    const done = runWorker({
      client: failing,
      workerId: 'w-broken',
      gateway: createOpenAIResponsesGateway({ baseURL: model.baseURL, apiKey: 'test', model: 'test-model', maxRetries: 0 }),
      turnContext: async () => ({ home: await mkdtemp(path.join(scratch, 'home-')) }),
      signal: stop.signal,
      pollIntervalMs: 50,
      transcriptFlushMs: 10,
      onEvent: (event) => events.push(event),
    });
    try {
      await until(async () => ((await plane.client.jobs.get({ agentId: 'broken', jobId: job.id })).status === 'succeeded' ? true : undefined), 'the job to succeed', 30_000, 100);
    } finally {
      stop.abort();
      await done;
    }
    const errors = events.filter((event): event is Extract<WorkerEvent, { type: 'worker.error' }> => event.type === 'worker.error');
    expect(errors.map((event) => (event.error as Error).message)).toContain(`Could not store the start of the transcript of job ${job.id}: the transcript table is gone`);
    expect((await plane.client.jobs.get({ agentId: 'broken', jobId: job.id })).finalAnswer).toBe('done: hello');
  }, 60_000);
});
