import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JobRecord, ScheduleRecord } from '@core/control-plane-client';
import type { TestModelServer } from '@core/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWriteFileModel } from '../../__fixtures__/write-file-model.js';
import { runCliProcess, spawnCli } from '../../__fixtures__/spawn-cli.js';

// `jobs start --home` and `schedules create --home`: the home is stored with the job or schedule, and the worker runs
// the job there (not in $XDG_DATA_HOME/ankole/agents/<agent>).
let model: TestModelServer;
let scratch: string;
let env: Record<string, string>;

beforeAll(async () => {
  model = await startWriteFileModel({ content: 'from the job\n', answerPrefix: 'done: ' });
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-work-home-'));
  env = { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: model.baseURL, XDG_DATA_HOME: path.join(scratch, 'data'), XDG_CONFIG_HOME: path.join(scratch, 'config'), HOME: scratch };
  // Background turns hold calls that need approval: let this agent write files unattended.
  await mkdir(path.join(scratch, 'config', 'ankole', 'agents'), { recursive: true });
  await writeFile(path.join(scratch, 'config', 'ankole', 'agents', 'default.json'), JSON.stringify({ approvals: { allow: ['write_file'] } }));
});
afterAll(async () => {
  await model.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('the home of jobs and schedules', () => {
  it('a job started with --home is run there by the worker, one without it in its agent config\'s home; a schedule keeps its --home', async () => {
    const project = path.join(scratch, 'project');
    await mkdir(project);
    const started = await runCliProcess(['jobs', 'start', '--home', project, '--json', 'write report.txt'], env, 90_000);
    expect(started.code).toBe(0);
    const job = JSON.parse(started.stdout) as JobRecord;
    expect(job.home).toBe(project);

    const scheduled = await runCliProcess(['schedules', 'create', '--home', project, '--cron', '0 9 * * *', '--json', 'morning'], env, 60_000);
    expect(scheduled.code).toBe(0);
    expect((JSON.parse(scheduled.stdout) as ScheduleRecord).home).toBe(project);

    // A job started without --home runs in its agent config's `home`.
    const configured = path.join(scratch, 'configured-home');
    await mkdir(configured);
    await writeFile(path.join(scratch, 'config', 'ankole', 'agents', 'cfg.json'), JSON.stringify({ home: configured, approvals: { allow: ['write_file'] } }));
    const other = await runCliProcess(['jobs', 'start', '--agent', 'cfg', '--json', 'write configured.txt'], env, 60_000);
    expect(other.code).toBe(0);
    const otherJob = JSON.parse(other.stdout) as JobRecord;
    expect(otherJob.home).toBe(null);

    const worker = spawnCli(['worker', '--concurrency', '1', '--poll-interval-ms', '100'], env);
    try {
      await worker.waitForOutput(`✓ job ${job.id}`, 90_000);
      await worker.waitForOutput(`✓ job ${otherJob.id}`, 90_000);
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
    expect(await readFile(path.join(project, 'report.txt'), 'utf8')).toBe('from the job\n');
    expect(await readFile(path.join(configured, 'configured.txt'), 'utf8')).toBe('from the job\n');
    const shown = await runCliProcess(['jobs', 'show', job.id], env, 60_000);
    expect(shown.stdout).toContain(`  home:     ${project}`);
  }, 240_000);

  it('a --home that does not exist is refused before anything is queued (exit 2)', async () => {
    const missing = path.join(scratch, 'missing');
    const result = await runCliProcess(['jobs', 'start', '--home', missing, 'write x.txt'], env, 60_000);
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 2,
      stderr: `ankole: The home folder ${missing} does not exist: create it, or leave out --home to use the agent's default home.\n`,
    });
  }, 60_000);
});
