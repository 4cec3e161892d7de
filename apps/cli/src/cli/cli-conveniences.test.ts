import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createControlPlane, createPostgresDriver } from '@core/control-plane';
import { testDatabaseUrl } from '@core/control-plane/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess, spawnCli } from '../__fixtures__/spawn-cli.js';

// The built CLI as a user types it: mistypes get a suggestion, options that every command shares may come before the
// command, a home that cannot be one is refused before the turn, and cancelling what already ended says so (exit 1).
let scratch: string;
let env: Record<string, string>;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-conveniences-'));
  env = { HOME: scratch, XDG_DATA_HOME: scratch };
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('mistakes and shortcuts', () => {
  it('a mistyped command or option: "did you mean"', async () => {
    const command = await runCliProcess(['wokrer'], env);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/^ankole: Unknown command "wokrer" \(did you mean worker\?\): the commands are run, /);
    const option = await runCliProcess(['tools', '--hoem', scratch], env);
    expect(option.code).toBe(2);
    expect(option.stderr.trimEnd()).toBe('ankole: Unknown option --hoem for `ankole tools`: see `ankole tools --help`. Did you mean --home?');
    const far = await runCliProcess(['tools', '--frobnicate'], env);
    expect(far.stderr).not.toMatch(/Did you mean/);
  });

  it('`ankole help jobs` is `jobs --help`, which lists every job status', async () => {
    const help = await runCliProcess(['help', 'jobs'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe((await runCliProcess(['jobs', '--help'], env)).stdout);
    expect(help.stdout).toContain('(queued, running, awaiting_approval, succeeded, failed, cancelled;');
    expect(help.stdout).toContain('ankole jobs start "<prompt>" --wait');
    const workflows = await runCliProcess(['workflows', '--help'], env);
    expect(workflows.stdout).toContain("A task's turn gets only submit_result (its arguments are the result), plus the web tools");
    expect(workflows.stdout).toContain('ankole workflows show <id> --follow');
  });

  it('--home and --agent before the command are the command\'s', async () => {
    const missing = path.join(scratch, 'nope');
    const before = await runCliProcess(['--home', missing, 'tools'], env);
    expect(before.code).toBe(2);
    expect(before.stderr).toContain(`The home folder ${missing} does not exist`);
    const ok = await runCliProcess([`--home=${scratch}`, '--agent', 'ops', 'tools', '--json'], env);
    expect(ok.code).toBe(0);
  });

  it('refuses an empty --home and the root of the file system before the turn', async () => {
    const empty = await runCliProcess(['run', '--home', '', 'hi'], env);
    expect(empty.code).toBe(2);
    expect(empty.stderr.trimEnd()).toBe("ankole: --home is empty: give it a folder, or leave it out to use the agent's default home.");
    const root = await runCliProcess(['run', '--home', '/', 'hi'], env);
    expect(root.code).toBe(2);
    expect(root.stderr).toMatch(/^ankole: --home \/ is the root of the file system: /);
  });

  it('a bad --mcp-config (not JSON, the wrong shape) is one sentence and exit 2, no Zod dump', async () => {
    const { writeFile } = await import('node:fs/promises');
    const notJson = path.join(scratch, 'not-json.json');
    await writeFile(notJson, '{ "mcpServers": ');
    const bad = await runCliProcess(['tools', '--home', scratch, '--mcp-config', notJson], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trimEnd()).toMatch(new RegExp(`^ankole: The MCP config ${notJson} is not a valid mcporter config \\(Failed to parse JSON \\(offset \\d+\\): \\w+\\): it must be JSON with an "mcpServers" object, each server with a "command" or a "url"\\.$`));
    const shape = path.join(scratch, 'shape.json');
    await writeFile(shape, '{ "servers": {} }');
    const wrong = await runCliProcess(['tools', '--home', scratch, '--mcp-config', shape], env);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^ankole: The MCP config .* is not a valid mcporter config \(mcpServers: /)]);
  });

  // root may write anywhere, so only another user can meet an unwritable home.
  it.skipIf(process.getuid?.() === 0)('refuses a home the user cannot write', async () => {
    const { chmod, mkdir } = await import('node:fs/promises');
    const locked = path.join(scratch, 'locked');
    await mkdir(locked);
    await chmod(locked, 0o500);
    const result = await runCliProcess(['run', '--home', locked, 'hi'], env);
    expect(result.code).toBe(2);
    expect(result.stderr.trimEnd()).toBe(`ankole: The home ${locked} is not writable by you: give --home a folder you can write to.`);
  });
});

describe('cancelling what already ended', () => {
  const DATABASE_URL = testDatabaseUrl();
  const schema = `t_${randomBytes(6).toString('hex')}`;

  afterAll(async () => {
    const driver = createPostgresDriver({ connectionString: DATABASE_URL });
    await driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`);
    await driver.close();
  });

  it('a job or schedule cancelled twice (by an id prefix): the second time says so and exits 1', async () => {
    const plane = await createControlPlane({ databaseUrl: DATABASE_URL, schema, background: false });
    const job = await plane.client.jobs.start({ agentId: 'default', prompt: 'tidy up' });
    const schedule = await plane.client.schedules.create({ agentId: 'default', prompt: 'later', runAt: new Date(Date.now() + 3_600_000).toISOString() });
    await plane.close();
    const dbEnv = { ...env, DATABASE_URL, ANKOLE_DB_SCHEMA: schema };

    // Any unique prefix of the id will do, as with git.
    const first = await runCliProcess(['jobs', 'cancel', job.id.slice(0, 8)], dbEnv);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Job ${job.id} is cancelled.`);
    expect(first.stdout).toContain('(background, 0 attempts)');
    const again = await runCliProcess(['jobs', 'cancel', job.id], dbEnv);
    expect(again.code).toBe(1);
    expect(again.stderr.trimEnd()).toBe(`ankole: Job ${job.id} had already been cancelled: there was nothing to cancel.`);

    expect((await runCliProcess(['schedules', 'cancel', schedule.id.slice(0, 6)], dbEnv)).code).toBe(0);
    const shown = await runCliProcess(['jobs', 'show', job.id.slice(0, 5)], dbEnv);
    expect(shown.stdout).toContain(`Job ${job.id}`);
    const none = await runCliProcess(['jobs', 'show', 'ffff0000'], dbEnv);
    expect(none.code).toBe(2);
    expect(none.stderr.trimEnd()).toBe('ankole: No job id starts with "ffff0000" for agent default (another agent\'s: pass --agent NAME).');
    const scheduleAgain = await runCliProcess(['schedules', 'cancel', schedule.id], dbEnv);
    expect(scheduleAgain.code).toBe(1);
    expect(scheduleAgain.stderr.trimEnd()).toBe(`ankole: Schedule ${schedule.id} had already been cancelled: there was nothing to cancel.`);
  }, 60_000);

  it('schedules: messages name the flags; a Paris cron shows its next runs in Paris time, relative to now; --json keeps ISO', async () => {
    const dbEnv = { ...env, DATABASE_URL, ANKOLE_DB_SCHEMA: schema, ANKOLE_MIN_SCHEDULE_INTERVAL_SECONDS: '60' };
    const past = await runCliProcess(['schedules', 'create', '--at', '2020-01-01T00:00:00Z', 'late'], dbEnv);
    expect(past.code).toBe(2);
    expect(past.stderr).toMatch(/^ankole: --at 2020-01-01T00:00:00\.000Z is in the past/);
    const both = await runCliProcess(['schedules', 'create', 'neither'], dbEnv);
    expect(both.code).toBe(2);
    expect(both.stderr.trimEnd()).toBe('ankole: Invalid options for `ankole schedules create`: input: give exactly one of --cron (a repeating schedule) or --at (a one-time date-time).');
    expect(both.stderr).not.toMatch(/runAt|schedules\.create/);

    const created = await runCliProcess(['schedules', 'create', '--cron', '0 9 * * *', '--time-zone', 'Europe/Paris', 'morning'], dbEnv);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/next runs: \d{4}-\d\d-\d\d 09:00 GMT\+[12] \(in \d+ (min|h)\)/);
    const listed = await runCliProcess(['schedules', 'list', '--json'], dbEnv);
    const [schedule] = JSON.parse(listed.stdout) as Array<{ nextRunTimes: string[] }>;
    expect(schedule!.nextRunTimes[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:00:00\.000Z$/);
  }, 60_000);

  it('schedules show lists the jobs a schedule started', async () => {
    const plane = await createControlPlane({ databaseUrl: DATABASE_URL, schema, background: false, minScheduleIntervalSeconds: 1 });
    const schedule = await plane.client.schedules.create({ agentId: 'ops', prompt: 'check', runAt: new Date(Date.now() + 1500).toISOString() });
    await plane.client.jobs.start({ agentId: 'ops', prompt: 'unrelated' });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await plane.fireDueSchedules()).toBe(1);
    await plane.close();
    const dbEnv = { ...env, DATABASE_URL, ANKOLE_DB_SCHEMA: schema };

    const shown = await runCliProcess(['schedules', 'show', schedule.id.slice(0, 8), '--agent', 'ops'], dbEnv);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^Schedule ${schedule.id} \\(completed\\)\n`));
    expect(shown.stdout).toMatch(/\nJobs it started \(1\):\nID +STATUS +RUN AT +FINISHED\n[0-9a-f-]{36} +queued +\d{4}-\d\d-\d\d \d\d:\d\d \S+ \(just now\) +-\n$/);
    const json = JSON.parse((await runCliProcess(['schedules', 'show', schedule.id, '--agent', 'ops', '--json'], dbEnv)).stdout) as { jobs: Array<{ prompt: string }> };
    expect(json.jobs.map((job) => job.prompt)).toEqual(['check']);
  }, 60_000);
});
