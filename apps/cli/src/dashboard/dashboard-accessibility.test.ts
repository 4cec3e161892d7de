import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { startTestModelServer, type TestModelServer } from '@core/testkit';
import { EXAMPLE_WORKFLOW_SCRIPT, exampleTaskReply } from '@core/worker/testing';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, startDashboardStack, type DashboardStack } from './__fixtures__/dashboard-stack.js';
import { DASHBOARD_TOOLS, dashboardTurnReply } from './__fixtures__/dashboard-turns.js';

// Every page of the dashboard checked by axe-core (WCAG 2.1 A and AA: labels, names, contrast, landmarks, ARIA) in a
// real headless Chromium, in light and dark colours, with real data drawn: a finished job with a tool call, a held call,
// a workflow's task tree, a schedule and Brain pages. Also: the sign-in works from the keyboard alone.
const CHROMIUM = findChromium();
if (CHROMIUM === undefined) console.log('Dashboard accessibility tests skipped: no Chromium here (install Debian\'s chromium, or set ANKOLE_CHROMIUM).');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** The page's WCAG 2.1 A/AA violations as axe-core finds them (axe is put into the page through the DevTools protocol, not past its CSP). */
async function violations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate('typeof globalThis.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  // A string, run in the page: this file is compiled without the DOM's types.
  return (await page.evaluate(`axe
    .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] })
    .then((result) => result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    })))`)) as Violation[];
}

describe.skipIf(CHROMIUM === undefined)('the dashboard is accessible (axe-core, WCAG 2.1 AA)', () => {
  let model: TestModelServer;
  let stack: DashboardStack;

  beforeAll(async () => {
    model = await startTestModelServer({ script: [], onExhausted: (request) => exampleTaskReply(request) ?? dashboardTurnReply(request) });
    stack = await startDashboardStack({ chromium: CHROMIUM!, model });
    await stack.startWorker({ extraTools: DASHBOARD_TOOLS, approvals: () => ({ allow: [], deny: [], hold: ['remove_file'], otherwise: 'hold' }) });
  }, 120_000);
  afterAll(async () => {
    await stack?.close();
    await model?.close();
  });

  it('finds no WCAG 2.1 A/AA violation on any page, in light and dark colours', { timeout: 120_000 }, async () => {
    const client = stack.plane.client;
    const looked = await client.jobs.start({ agentId: 'ally', title: 'Kelp notes', prompt: 'look up kelp' });
    const held = await client.jobs.start({ agentId: 'ally', title: 'Tidy drafts', prompt: 'remove draft.md' });
    const workflow = await client.workflows.start({ agentId: 'ally', title: 'Tides report', script: EXAMPLE_WORKFLOW_SCRIPT, input: { topics: ['tides', 'kelp'] } });
    await client.schedules.create({ agentId: 'ally', title: 'Morning digest', prompt: 'Summarise the news', cron: '0 9 * * 1-5', timeZone: 'Europe/Paris' });
    await client.brain.createPage({ agentId: 'ally', title: 'Kelp forests', body: 'Kelp forests grow in cold water.\n\nThey shelter sea otters.' });
    for (const until of [
      async () => (await client.jobs.get({ agentId: 'ally', jobId: looked.id })).status === 'succeeded',
      async () => (await client.jobs.get({ agentId: 'ally', jobId: held.id })).status === 'awaiting_approval',
      async () => (await client.workflows.get({ agentId: 'ally', workflowId: workflow.id })).status === 'succeeded',
    ]) {
      await expect.poll(until, { timeout: 60_000, interval: 200 }).toBe(true);
    }

    const signIn = await stack.browser.newPage();
    await signIn.goto(stack.server.url);
    await signIn.getByLabel('Token').waitFor();
    const found: Record<string, Violation[]> = { 'sign-in': await violations(signIn) };
    await signIn.close();

    const page = await stack.signedInPage(await stack.agentToken('ally'));
    const pages: Array<[string, string, () => Promise<unknown>]> = [
      ['jobs', '#/jobs', () => page.locator(`tr[data-job="${looked.id}"]`).waitFor()],
      ['job', `#/jobs/${looked.id}`, () => page.locator('pre.answer').waitFor()],
      ['approvals', '#/approvals', () => page.getByRole('button', { name: /Approve/ }).first().waitFor()],
      ['workflows', '#/workflows', () => page.getByRole('link', { name: 'Tides report' }).waitFor()],
      ['workflow', `#/workflows/${workflow.id}`, () => page.getByText('succeeded').first().waitFor()],
      ['schedules', '#/schedules', () => page.locator('li.card', { hasText: 'Morning digest' }).waitFor()],
      ['brain', '#/brain', () => page.getByRole('list', { name: 'Pages' }).waitFor()],
    ];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [name, hash, drawn] of pages) {
        await page.goto(`${stack.server.url}/${hash}`);
        await drawn();
        found[`${name} (${scheme})`] = await violations(page);
      }
    }
    await page.context().close();
    expect(Object.entries(found).filter(([, list]) => list.length > 0)).toEqual([]);
    expect(Object.keys(found)).toHaveLength(15);
  });

  it('signs in and opens a job from the keyboard alone', { timeout: 60_000 }, async () => {
    const context = await stack.browser.newContext();
    const page = await context.newPage();
    await page.goto(stack.server.url);
    await page.getByLabel('Token').waitFor();
    // The token field has the focus when the page opens.
    await page.keyboard.type(await stack.agentToken('ally'));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /Jobs/ }).waitFor();
    const link = page.getByRole('link', { name: 'Kelp notes' });
    await link.waitFor();
    for (let presses = 0; presses < 40 && (await page.evaluate('document.activeElement?.textContent')) !== 'Kelp notes'; presses += 1) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('pre.answer').waitFor();
    expect(page.url()).toMatch(/#\/jobs\/[0-9a-f-]{36}$/);
    await context.close();
  });
});
