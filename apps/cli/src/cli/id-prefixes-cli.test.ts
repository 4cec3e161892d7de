import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createControlPlane, createPostgresDriver } from '@core/control-plane';
import { testDatabaseUrl } from '@core/control-plane/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess } from '../__fixtures__/spawn-cli.js';

// One way to name things: every command that takes an id takes its first characters too (as git does); an id that
// is not there names the command that lists them and --agent; what had already finished says so the same way (exit 1).
const DATABASE_URL = testDatabaseUrl();
const schema = `t_${randomBytes(6).toString('hex')}`;
let scratch: string;
let env: Record<string, string>;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-id-prefixes-'));
  env = { HOME: scratch, XDG_DATA_HOME: scratch, DATABASE_URL, ANKOLE_DB_SCHEMA: schema };
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
  const driver = createPostgresDriver({ connectionString: DATABASE_URL });
  await driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`);
  await driver.close();
});

const CLOSED = { type: 'object', additionalProperties: false, required: ['ok'], properties: { ok: { type: 'boolean' } } };
const CALLS = [{ callId: 'c1', toolName: 'command', label: 'Running `rm a.txt`', params: { command: 'rm a.txt' }, isDestructive: true }];

describe('id prefixes, not-found hints and finished records', () => {
  it('workflows, approvals, tokens and Brain pages by a prefix; twice: exit 1 with one wording', async () => {
    const plane = await createControlPlane({ databaseUrl: DATABASE_URL, schema, background: false });
    const workflow = await plane.client.workflows.start({ agentId: 'default', title: 'Survey', script: `return await task({ title: 'Count', prompt: 'Count.', result: ${JSON.stringify(CLOSED)} });` });
    const job = await plane.client.jobs.start({ agentId: 'default', prompt: 'tidy up' });
    const claimed = (await plane.client.work.claim({ workerId: 'w1' }))!;
    await plane.client.work.hold({ jobId: job.id, leaseToken: claimed.leaseToken, runState: { version: 1, items: [], pending: [{ callId: 'c1' }] }, calls: CALLS });
    const [approval] = await plane.client.approvals.list({ agentId: 'default' });
    await plane.client.brain.importPages({ agentId: 'default', pages: [{ title: 'Tides', body: 'High tide at noon.' }] });
    const [page] = (await plane.client.brain.listPages({ agentId: 'default' })).pages;
    await plane.close();

    const shown = await runCliProcess(['workflows', 'show', workflow.id.slice(0, 6)], env);
    expect(shown.stdout).toContain(`Workflow ${workflow.id} "Survey"`);
    expect((await runCliProcess(['workflows', 'cancel', workflow.id.slice(0, 6)], env)).code).toBe(0);
    const cancelledAgain = await runCliProcess(['workflows', 'cancel', workflow.id.slice(0, 6)], env);
    expect({ code: cancelledAgain.code, stderr: cancelledAgain.stderr }).toEqual({ code: 1, stderr: `ankole: Workflow ${workflow.id} had already been cancelled: there was nothing to cancel.\n` });

    const approvalShown = await runCliProcess(['approvals', 'show', approval!.id.slice(0, 5)], env);
    expect(approvalShown.stdout).toContain(`Approval ${approval!.id}`);
    // One time format for people, as in jobs and schedules: local time with its zone, and how long ago.
    expect(approvalShown.stdout).toMatch(/\n {2}held: {6}\d{4}-\d\d-\d\d \d\d:\d\d \S+ \((just now|\d+ s ago)\)\n/);
    expect(shown.stdout).not.toMatch(/\d{4}-\d\d-\d\dT\d\d/);
    expect((await runCliProcess(['approvals', 'deny', approval!.id.slice(0, 5)], env)).code).toBe(0);
    const deniedAgain = await runCliProcess(['approvals', 'approve', approval!.id.slice(0, 5)], env);
    expect({ code: deniedAgain.code, stderr: deniedAgain.stderr }).toEqual({ code: 1, stderr: `ankole: Approval ${approval!.id} had already been denied: there was nothing to approve.\n` });

    const pageShown = await runCliProcess(['brain', 'show', page!.id.slice(0, 6)], env);
    expect(pageShown.stdout).toMatch(/^Tides {2}\(/);
    const created = await runCliProcess(['tokens', 'create', '--worker', '--json'], env);
    const tokenId = (JSON.parse(created.stdout) as { record: { id: string } }).record.id;
    const revoked = await runCliProcess(['tokens', 'revoke', tokenId.slice(0, 7)], env);
    expect(revoked.stdout).toBe(`Token ${tokenId} is revoked.\n`);
  }, 60_000);

  it('an id that is not there: the list command and --agent, never words written for the model', async () => {
    const job = await runCliProcess(['jobs', 'show', 'ffff0000', '--agent', 'ops'], env);
    expect({ code: job.code, stderr: job.stderr }).toEqual({ code: 2, stderr: 'ankole: No job id starts with "ffff0000" for agent ops (another agent\'s: pass --agent NAME).\n' });
    const page = await runCliProcess(['brain', 'show', 'Moon phases'], env);
    expect(page.code).toBe(2);
    expect(page.stderr).toBe('ankole: No Brain page with id or title "Moon phases" for this agent: `ankole brain list` or `ankole brain search "…"` shows the pages (another agent\'s: pass --agent NAME).\n');
    expect(page.stderr).not.toContain('recall');
    for (const kind of ['workflows', 'approvals']) {
      const missing = await runCliProcess([kind, 'show', 'ffff0000'], env);
      expect(missing.stderr).toMatch(/^ankole: No (workflow|approval) id starts with "ffff0000" for agent default \(another agent's: pass --agent NAME\)\.\n$/);
    }
  }, 60_000);
});
