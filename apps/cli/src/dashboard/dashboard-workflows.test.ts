import { lastUserText, reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_WORKFLOW_SCRIPT, exampleTaskReply, taskTitle } from '@core/worker/testing';
import { findChromium, screenshot, startDashboardStack, type DashboardStack } from './__fixtures__/dashboard-stack.js';

// The dashboard's workflow, schedule and Brain pages in a real headless Chromium, against the real control plane and a
// real worker running the example workflow with the test model.
const CHROMIUM = findChromium();
if (CHROMIUM === undefined) console.log('Dashboard browser tests skipped: no Chromium here (install Debian\'s chromium, or set ANKOLE_CHROMIUM).');

describe.skipIf(CHROMIUM === undefined)('the dashboard in a browser: workflows, schedules, Brain', () => {
  let model: TestModelServer;
  let stack: DashboardStack;
  // The `Summarise` task's turn waits for the test, so the page is seen with the research done and the summary not.
  let releaseSummary!: () => void;
  const summaryGate = new Promise<void>((resolve) => {
    releaseSummary = resolve;
  });

  // A task titled `Wait…` never answers while the test runs (its workflow is cancelled from the page).
  let releaseWaits!: () => void;
  const waitGate = new Promise<void>((resolve) => {
    releaseWaits = resolve;
  });

  beforeAll(async () => {
    model = await startTestModelServer({
      script: [],
      onExhausted: async (request) => {
        if (taskTitle(request) === 'Summarise') await summaryGate;
        if (taskTitle(request)?.startsWith('Wait') === true) {
          await waitGate;
          return reply.text('The tide came.');
        }
        return exampleTaskReply(request) ?? reply.text(`done: ${lastUserText(request) ?? ''}`);
      },
    });
    stack = await startDashboardStack({ chromium: CHROMIUM!, model });
  }, 120_000);
  afterAll(async () => {
    releaseSummary();
    releaseWaits();
    await stack?.close();
    await model?.close();
  });

  it("fills in a workflow's task tree as its tasks finish, then shows its log and result, without a reload", { timeout: 90_000 }, async () => {
    const workflow = await stack.plane.client.workflows.start({ agentId: 'w', title: 'Sea research', script: EXAMPLE_WORKFLOW_SCRIPT, input: { topics: ['anemones', 'crabs', 'kelp'] } });
    const page = await stack.signedInPage(await stack.agentToken('w'));
    await page.goto(`${stack.server.url}/#/workflows/${workflow.id}`);
    await page.getByRole('heading', { name: /Sea research/ }).waitFor();
    await page.evaluate('globalThis.sameDocument = true');
    const tasks = page.getByRole('list', { name: 'Tasks' });
    expect(await page.getByText('No tasks yet.').count()).toBe(1);
    await stack.startWorker();

    // The three research tasks finish while the summary waits.
    await tasks.locator('li[data-status="succeeded"]').nth(2).waitFor({ timeout: 60_000 });
    await tasks.locator('li', { hasText: 'Summarise' }).waitFor();
    expect(await tasks.locator('li', { hasText: 'Summarise' }).getAttribute('data-status')).not.toBe('succeeded');
    expect(await page.locator('h2', { hasText: 'Result' }).count()).toBe(0);
    await screenshot(page, 'workflow-running');

    releaseSummary();
    await page.getByRole('heading', { name: /Sea research/ }).getByText('succeeded').waitFor({ timeout: 60_000 });
    expect(await tasks.locator('li[data-status="succeeded"]').count()).toBe(4);
    expect(await page.locator('pre.result').last().textContent()).toContain('"summary": "3 notes summarised"');
    expect(await page.locator('ol.log').textContent()).toContain('collected 3 notes');
    expect(await page.evaluate('globalThis.sameDocument')).toBe(true);
    await screenshot(page, 'workflow');

    // A task's own page: its result and its transcript, with the submit_result call.
    await tasks.getByRole('link', { name: '1. Research anemones' }).click();
    await page.getByRole('group', { name: /Tool call .*/ }).first().waitFor();
    expect(await page.locator('.transcript').textContent()).toContain('submit_result');
    expect(await page.locator('pre.result').textContent()).toContain('anemones fact 1');
    await page.context().close();
  });

  it('cancels a running workflow from its page', { timeout: 60_000 }, async () => {
    const script = `return await task({ title: 'Wait for the tide', prompt: 'Wait.', result: { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } } });`;
    const workflow = await stack.plane.client.workflows.start({ agentId: 'x', title: 'Tide watch', script, input: {} });
    const page = await stack.signedInPage(await stack.agentToken('x'));
    await page.getByRole('link', { name: 'Workflows' }).click();
    await page.getByRole('link', { name: 'Tide watch' }).click();
    await page.getByRole('list', { name: 'Tasks' }).locator('li', { hasText: 'Wait for the tide' }).waitFor({ timeout: 45_000 });
    await page.getByRole('button', { name: 'Cancel workflow' }).click();
    await page.getByRole('heading', { name: /Tide watch/ }).getByText('cancelled').waitFor();
    expect(await page.getByRole('button', { name: 'Cancel workflow' }).count()).toBe(0);
    expect((await stack.plane.client.workflows.get({ agentId: 'x', workflowId: workflow.id })).status).toBe('cancelled');
    await page.context().close();
  });

  it('lists schedules with their next runs in words, cancels one, and searches the Brain and shows a page', { timeout: 60_000 }, async () => {
    await stack.plane.client.schedules.create({ agentId: 's', title: 'Morning digest', prompt: 'Summarise the news', cron: '0 9 * * 1-5', timeZone: 'Europe/Paris' });
    await stack.plane.client.brain.createPage({ agentId: 's', title: 'Kelp forests', body: 'Kelp forests grow in cold, nutrient-rich water.\n\nThey shelter sea otters.' });
    await stack.plane.client.brain.createPage({ agentId: 's', title: 'Coral reefs', body: 'Reefs are built by corals.' });
    const page = await stack.signedInPage(await stack.agentToken('s'));

    await page.getByRole('link', { name: 'Schedules' }).click();
    const schedule = page.locator('li.card', { hasText: 'Morning digest' });
    await schedule.waitFor();
    expect(await schedule.textContent()).toContain('At 09:00, Monday through Friday');
    expect(await schedule.locator('time').first().textContent()).toMatch(/^\d{4}-\d\d-\d\d 09:00 .* \((in \d+ (min|h|days?)|just now)\)$/);
    await screenshot(page, 'schedules');
    // Cancel from the page: the schedule says so and will not run again (in the control plane too).
    await schedule.getByRole('button', { name: 'Cancel schedule' }).click();
    await schedule.getByText('It will not run again.').waitFor();
    expect(await schedule.getByRole('button', { name: 'Cancel schedule' }).count()).toBe(0);
    expect(await page.locator('#announce').textContent()).toBe('Schedule cancelled.');
    expect((await stack.plane.client.schedules.list({ agentId: 's', includeInactive: true })).map((each) => each.status)).toEqual(['cancelled']);

    await page.getByRole('link', { name: 'Brain' }).click();
    await page.getByRole('list', { name: 'Pages' }).waitFor();
    await page.getByLabel('Search').fill('otters');
    await page.getByLabel('Search').press('Enter');
    const hits = page.getByRole('list', { name: 'Search results' });
    await hits.waitFor();
    expect(await hits.getByRole('link').allTextContents()).toEqual(['Kelp forests']);
    await screenshot(page, 'brain');
    await hits.getByRole('link', { name: 'Kelp forests' }).click();
    await page.getByRole('heading', { name: 'Kelp forests' }).waitFor();
    expect(await page.locator('pre.page').textContent()).toContain('They shelter sea otters.');
    await page.context().close();
  });
});
