import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineWorkerTool, type AnyWorkerAgentTool } from '@core/runtime';
import { startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findChromium, screenshot, startDashboardStack, type DashboardStack } from './__fixtures__/dashboard-stack.js';
import { DASHBOARD_TOOLS, dashboardTurnReply } from './__fixtures__/dashboard-turns.js';

// The dashboard of `ankole serve` in a real headless Chromium, against the real control plane and a real worker with
// the test model: what a person sees and does in the browser, and what the server refuses.
const CHROMIUM = findChromium();
if (CHROMIUM === undefined) console.log('Dashboard browser tests skipped: no Chromium here (install Debian\'s chromium, or set ANKOLE_CHROMIUM).');

// The slow lookup answers once the test lets it (so the page is seen while the call runs).
let releaseSlowLookup!: () => void;
const slowLookupGate = new Promise<void>((resolve) => {
  releaseSlowLookup = resolve;
});

/** The job turns' tools: a read-only lookup, a slow one, and a destructive removal held for a person. */
const TOOLS: AnyWorkerAgentTool[] = [
  ...DASHBOARD_TOOLS,
  defineWorkerTool({
    name: 'slow_lookup',
    description: 'Looks a topic up, slowly.',
    schema: z.object({ topic: z.string() }),
    isReadOnly: true,
    describeActivity: (params) => `Looking up ${params.topic} slowly`,
    execute: async (params) => {
      await slowLookupGate;
      return { content: `${params.topic}: found at last` };
    },
  }),
];

describe.skipIf(CHROMIUM === undefined)('the dashboard in a browser: jobs, approvals, tokens', () => {
  let model: TestModelServer;
  let stack: DashboardStack;

  beforeAll(async () => {
    // `look up X` calls lookup, `remove X` calls remove_file; each then answers with what the tool returned.
    // `look up X` calls lookup, `slowly look up X` slow_lookup, `remove X` remove_file; each then answers with the output.
    model = await startTestModelServer({ script: [], onExhausted: dashboardTurnReply });
    stack = await startDashboardStack({ chromium: CHROMIUM!, model });
  }, 120_000);
  afterAll(async () => {
    releaseSlowLookup();
    await stack?.close();
    await model?.close();
  });

  it('signs in with a token kept in an HttpOnly, SameSite=Strict cookie the page cannot read, and refuses a wrong one', { timeout: 60_000 }, async () => {
    const context = await stack.browser.newContext();
    const page = await context.newPage();
    await page.goto(stack.server.url);
    await screenshot(page, 'sign-in');
    await page.getByLabel('Token').fill('ank_wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('unknown or revoked');

    // By keyboard: the token field has the focus again after a refusal; Enter signs in.
    await page.keyboard.press('Control+A');
    await page.keyboard.type(stack.workerToken);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /Jobs/ }).waitFor();
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'ankole_session', httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate('document.cookie')).toBe('');
    // Nothing secret in what the server sends: the page's source is the same for everyone.
    const source = await (await page.request.get(stack.server.url)).text();
    expect(source).not.toContain(stack.workerToken);
    await context.close();
  });

  it('shows a queued job appear, turn succeeded without a reload, and its transcript with the tool call', { timeout: 60_000 }, async () => {
    const page = await stack.signedInPage(stack.workerToken);
    await page.getByLabel('Agent').fill('a');
    await page.getByLabel('Agent').press('Enter');
    await page.getByText('of agent a').waitFor();
    await page.evaluate('globalThis.sameDocument = true');
    const job = await stack.plane.client.jobs.start({ agentId: 'a', title: 'Kelp notes', prompt: 'look up kelp' });

    await page.locator(`tr[data-job="${job.id}"][data-status="queued"]`).waitFor();
    await stack.startWorker({ extraTools: TOOLS });
    await page.locator(`tr[data-job="${job.id}"][data-status="succeeded"]`).waitFor({ timeout: 45_000 });
    expect(await page.evaluate('globalThis.sameDocument')).toBe(true);
    await screenshot(page, 'jobs');
    // The filters: by status (kept in the address), then back to any.
    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('No jobs.').waitFor();
    expect(page.url()).toContain('status=failed');
    await page.getByLabel('Status').selectOption('succeeded');
    await page.locator(`tr[data-job="${job.id}"]`).waitFor();

    await page.getByRole('link', { name: 'Kelp notes' }).click();
    const call = page.getByRole('group', { name: 'Tool call Looking up kelp' });
    await call.waitFor();
    await call.getByText('Output').click();
    await expect.poll(() => call.textContent()).toContain('kelp: a brown alga');
    await expect.poll(() => page.locator('pre.answer').textContent()).toContain('done: look up kelp');
    await expect.poll(() => page.locator('.summary').textContent()).toMatch(/Completed · 2 steps · 1 tool call/);
    await screenshot(page, 'job');
    await page.context().close();
  });

  it('waits on the change stream instead of asking again and again: idle it calls nothing, a new job is drawn when it comes', { timeout: 60_000 }, async () => {
    // No worker meanwhile: the job stays queued until the test cancels it.
    await stack.stopWorkers();
    const page = await stack.signedInPage(stack.workerToken);
    await page.getByLabel('Agent').fill('quiet');
    await page.getByLabel('Agent').press('Enter');
    await page.getByText('of agent quiet').waitFor();
    await page.locator('body[data-live="stream"]').waitFor();
    const calls: Array<{ call: string; at: number }> = [];
    page.on('request', (request) => {
      const call = new URL(request.url()).pathname;
      if (call.startsWith('/v1/')) calls.push({ call, at: Date.now() });
    });
    // Once listening, the page reads its data once more (a change may have come before), within a second.
    await page.waitForTimeout(2_000);
    calls.length = 0;
    // Idle: no call at all for a while (the page used to ask every 1.5 s; its safety reload comes every 15 s).
    await page.waitForTimeout(4_000);
    expect(calls).toEqual([]);
    await page.evaluate('globalThis.sameDocument = true');
    const started = Date.now();
    const job = await stack.plane.client.jobs.start({ agentId: 'quiet', title: 'Pushed', prompt: 'nothing to do' });
    await page.locator(`tr[data-job="${job.id}"][data-status="queued"]`).waitFor();
    // The list was read again because the stream told of the job, not on a timer, and the stream stayed open.
    expect(calls.filter(({ call, at }) => call === '/v1/jobs/list' && at >= started).length).toBeGreaterThan(0);
    expect(calls.filter(({ call }) => call === '/v1/changes')).toEqual([]);
    expect(await page.evaluate('globalThis.sameDocument')).toBe(true);
    await stack.plane.client.jobs.cancel({ agentId: 'quiet', jobId: job.id });
    await page.locator(`tr[data-job="${job.id}"][data-status="cancelled"]`).waitFor();
    // A job's page reads nothing again for another job's changes.
    await page.getByRole('link', { name: 'Pushed' }).click();
    await page.getByRole('heading', { name: /Pushed/ }).waitFor();
    await page.waitForTimeout(1_500);
    calls.length = 0;
    await stack.plane.client.jobs.start({ agentId: 'quiet', title: 'Another', prompt: 'nothing either' });
    await page.waitForTimeout(2_500);
    expect(calls).toEqual([]);
    await page.context().close();
    await stack.startWorker({ extraTools: TOOLS });
  });

  it("draws a running job's transcript live: the call running, then done, and the answer", { timeout: 60_000 }, async () => {
    const job = await stack.plane.client.jobs.start({ agentId: 'a', title: 'Slow notes', prompt: 'slowly look up urchins' });
    const page = await stack.signedInPage(stack.workerToken);
    await page.getByLabel('Agent').fill('a');
    await page.getByLabel('Agent').press('Enter');
    await page.goto(`${stack.server.url}/#/jobs/${job.id}`);
    await page.evaluate('globalThis.sameDocument = true');
    const call = page.getByRole('group', { name: 'Tool call Looking up urchins slowly' });
    await call.and(page.locator('.running')).waitFor({ timeout: 45_000 });
    expect(await page.getByRole('heading', { name: /Slow notes/ }).textContent()).toContain('running');
    expect(await page.locator('.transcript').textContent()).toContain('Running…');
    await screenshot(page, 'job-running');

    releaseSlowLookup();
    await call.and(page.locator('.done')).waitFor();
    await expect.poll(() => page.locator('pre.answer').count()).toBe(1);
    expect(await page.locator('pre.answer').textContent()).toBe('done: slowly look up urchins → urchins: found at last');
    expect(await page.evaluate('globalThis.sameDocument')).toBe(true);
    await page.context().close();
  });

  it('approves a held call from the page (the count shows on every page), and the job finishes', { timeout: 60_000 }, async () => {
    await stack.startWorker({ extraTools: TOOLS, approvals: () => ({ allow: [], deny: [], hold: ['remove_file'], otherwise: 'hold' }) });
    const page = await stack.signedInPage(await stack.agentToken('b'));
    const job = await stack.plane.client.jobs.start({ agentId: 'b', title: 'Tidy drafts', prompt: 'remove draft.md' });
    await page.locator('#approval-count:not([hidden])').waitFor({ timeout: 45_000 });
    expect(await page.locator('#approval-count').textContent()).toBe('1');

    await page.getByRole('link', { name: /Approvals/ }).click();
    const card = page.getByRole('listitem', { name: 'Approval for Removing draft.md' });
    await card.waitFor();
    expect(await card.textContent()).toContain('remove_file');
    expect(await card.locator('pre').textContent()).toContain('"path": "draft.md"');
    await screenshot(page, 'approvals');
    await card.getByLabel(/Reason/).fill('it is a copy');
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('No calls wait for approval.').waitFor();

    await page.goto(`${stack.server.url}/#/jobs/${job.id}`);
    await page.getByRole('heading', { name: /Tidy drafts/ }).getByText('succeeded').waitFor({ timeout: 45_000 });
    await page.getByRole('group', { name: 'Tool call Removing draft.md' }).waitFor();
    expect(await page.locator('.transcript').textContent()).toContain('Held for a person');
    expect(await stack.plane.client.jobs.get({ agentId: 'b', jobId: job.id })).toMatchObject({ status: 'succeeded', finalAnswer: 'done: remove draft.md → removed draft.md' });
    await page.context().close();
  });

  it('denies a held call from the page with a reason: the transcript says a person denied it and the summary counts it', { timeout: 60_000 }, async () => {
    // The worker of the test before holds remove_file calls.
    const job = await stack.plane.client.jobs.start({ agentId: 'd', title: 'Prune notes', prompt: 'remove notes.md' });
    const page = await stack.signedInPage(await stack.agentToken('d'));
    await page.getByRole('link', { name: /Approvals/ }).click();
    const card = page.getByRole('listitem', { name: 'Approval for Removing notes.md' });
    await card.waitFor({ timeout: 45_000 });
    await card.getByLabel(/Reason/).fill('still needed');
    await card.getByRole('button', { name: 'Deny' }).click();
    await page.getByText('No calls wait for approval.').waitFor();

    await page.goto(`${stack.server.url}/#/jobs/${job.id}`);
    await page.getByRole('heading', { name: /Prune notes/ }).getByText('succeeded').waitFor({ timeout: 45_000 });
    const call = page.getByRole('group', { name: 'Tool call Removing notes.md' });
    await expect.poll(() => call.textContent()).toContain('denied by a person: still needed');
    expect(await page.locator('.summary').last().textContent()).toContain('1 call denied by a person');
    await page.context().close();
  });

  it('cancels a job from its page', { timeout: 60_000 }, async () => {
    // The worker of the test before holds remove_file calls: the job waits for a person until it is cancelled.
    const job = await stack.plane.client.jobs.start({ agentId: 'e', title: 'Clean up', prompt: 'remove junk.txt' });
    const page = await stack.signedInPage(await stack.agentToken('e'));
    await page.goto(`${stack.server.url}/#/jobs/${job.id}`);
    await page.getByRole('heading', { name: /Clean up/ }).getByText('awaiting approval').waitFor({ timeout: 45_000 });
    await page.getByRole('button', { name: 'Cancel job' }).click();
    await page.getByRole('heading', { name: /Clean up/ }).getByText('cancelled').waitFor();
    expect(await page.getByRole('button', { name: 'Cancel job' }).count()).toBe(0);
    expect((await stack.plane.client.jobs.get({ agentId: 'e', jobId: job.id })).status).toBe('cancelled');
    await page.context().close();
  });

  it("keeps an agent token to its agent: another agent's job is not listed, not shown by its address, and refused by the server", { timeout: 60_000 }, async () => {
    const other = await stack.plane.client.jobs.start({ agentId: 'a', title: 'Secret plans of a', prompt: 'say hello' });
    const page = await stack.signedInPage(await stack.agentToken('c'));
    expect(await page.getByLabel('Agent').inputValue()).toBe('c');
    expect(await page.getByLabel('Agent').getAttribute('readonly')).not.toBeNull();
    await page.getByText('No jobs.').waitFor();

    await page.goto(`${stack.server.url}/#/jobs/${other.id}`);
    await page.getByRole('heading', { name: 'Job not found' }).waitFor();
    expect(await page.content()).not.toContain('Secret plans');

    const answers = await page.evaluate(async (jobId) => {
      const call = (path: string, body: unknown) =>
        fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-ankole-dashboard': '1' }, body: JSON.stringify(body) }).then(async (response) => ({ status: response.status, body: await response.text() }));
      return [
        // Asked for agent a: refused by the server's token check.
        await call('/v1/jobs/get', { agentId: 'a', jobId }),
        await call('/v1/jobs/list', { agentId: 'a' }),
        await call('/v1/transcripts/get', { agentId: 'a', jobId }),
        await call('/v1/jobs/cancel', { agentId: 'a', jobId }),
        await call('/v1/work/claim', { workerId: 'x' }),
        // Asked for its own agent (or none: the server sets it): agent c has no such job.
        await call('/v1/jobs/get', { jobId }),
        await call('/v1/transcripts/get', { agentId: 'c', jobId }),
        await call('/v1/jobs/cancel', { jobId }),
      ];
    }, other.id);
    expect(answers.map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403, 404, 404, 404]);
    expect((await stack.plane.client.jobs.get({ agentId: 'a', jobId: other.id })).status).not.toBe('cancelled');
    expect(answers.map((answer) => answer.body).join('')).not.toContain('Secret plans');
    await page.context().close();
  });

  it('refuses a cross-site POST that carries the session cookie', { timeout: 60_000 }, async () => {
    const victim = await stack.plane.client.jobs.start({ agentId: 'd', title: 'Keep me', prompt: 'hold on' });
    const page = await stack.signedInPage(stack.workerToken);
    // Another origin on the same machine (another port: the same site, so the SameSite=Strict cookie still goes along):
    // its page posts a form (JSON smuggled in a text/plain body) and a no-cors fetch to the control plane.
    const target = `${stack.server.url}/v1/jobs/cancel`;
    const attacker = await serveHtml(
      `<form id="f" method="post" action="${target}" enctype="text/plain"><input type="hidden" name='{"agentId":"d","jobId":"${victim.id}","x":"' value='"}'></form>` +
        `<script>fetch(${JSON.stringify(target)}, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ agentId: 'd', jobId: '${victim.id}' }) }).finally(() => document.getElementById('f').submit());</script>`,
    );
    try {
      await page.goto(attacker.url);
      await page.waitForURL(target);
      const answer = JSON.parse((await page.locator('body').textContent()) ?? '{}') as { error?: { code?: string } };
      expect(answer.error?.code).toBe('cross_site');
      expect(stack.log.filter((line) => line.includes('POST /v1/jobs/cancel → 403 cross_site'))).toHaveLength(2);
      expect((await stack.plane.client.jobs.get({ agentId: 'd', jobId: victim.id })).status).not.toBe('cancelled');
    } finally {
      await attacker.close();
      await page.context().close();
    }
  });
});

/** Serves one HTML page on another port of this machine. */
async function serveHtml(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><body>${html}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
