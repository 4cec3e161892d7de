import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ControlPlane } from '@core/control-plane';
import { controlPlanes } from '@core/control-plane/testing';
import { createAccessTokens, serveControlPlane, type ControlPlaneServer } from '@core/control-plane-http';
import { createOpenAIResponsesGateway, type AnyWorkerAgentTool } from '@core/runtime';
import type { TestModelServer } from '@core/testkit';
import { chromium, type Browser, type Page } from 'playwright-core';
import { runWorker, type RunWorkerOptions } from '@core/worker';

/** Where Chromium is: `ANKOLE_CHROMIUM` when set (only there), else Debian's `chromium` or another usual place; `undefined` when there is none. */
export function findChromium(): string | undefined {
  const chosen = process.env.ANKOLE_CHROMIUM;
  const candidates = chosen !== undefined && chosen !== '' ? [chosen] : ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];
  return candidates.find((candidate): candidate is string => candidate !== undefined && candidate !== '' && existsSync(candidate));
}

/** Where the screenshots of the README go (written only with `ANKOLE_SCREENSHOTS=1`, so test runs leave the tree clean). */
const SCREENSHOTS = fileURLToPath(new URL('../../../../../packages/dashboard/docs/screenshots/', import.meta.url));

/** Saves a screenshot of the page for the dashboard's README when `ANKOLE_SCREENSHOTS=1`. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.ANKOLE_SCREENSHOTS !== '1') return;
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The whole thing the browser tests drive: a control plane on PostgreSQL, `ankole serve`'s HTTP server with the dashboard, tokens, a browser. */
export interface DashboardStack {
  plane: ControlPlane;
  server: ControlPlaneServer;
  browser: Browser;
  /** A worker token (sees every agent). */
  workerToken: string;
  /** Makes an agent token for `agentId`. */
  agentToken(agentId: string): Promise<string>;
  /** The server's log lines (refusals). */
  log: string[];
  /** Starts a worker on the control plane with the test model, once the workers started before have stopped (the last one is stopped by `close`). */
  startWorker(options?: { extraTools?: AnyWorkerAgentTool[]; approvals?: RunWorkerOptions['approvals'] }): Promise<void>;
  /** Stops the running worker (queued jobs then stay queued). */
  stopWorkers(): Promise<void>;
  /** A new page (its own cookies) signed in with `token`. */
  signedInPage(token: string): Promise<Page>;
  close(): Promise<void>;
}

/** Starts the stack; `model` answers the turns. */
export async function startDashboardStack(options: { chromium: string; model: TestModelServer }): Promise<DashboardStack> {
  const planes = controlPlanes('postgres');
  const plane = await planes.open({ leaseSeconds: 30 });
  const tokens = createAccessTokens({ driver: plane.driver, schema: plane.schema });
  const log: string[] = [];
  const server = await serveControlPlane({
    client: plane.client,
    changes: plane.changes,
    authenticate: (token) => (token === undefined ? undefined : tokens.verify(token)),
    port: 0,
    dashboard: true,
    log: (line) => log.push(line),
  });
  const browser = await chromium.launch({ executablePath: options.chromium, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const homes = await mkdtemp(path.join(tmpdir(), 'ankole-dashboard-'));
  const stops: Array<() => Promise<void>> = [];
  const { token: workerToken } = await tokens.create({ kind: 'worker', label: 'dashboard test' });
  return {
    plane,
    server,
    browser,
    workerToken,
    log,
    agentToken: async (agentId) => (await tokens.create({ kind: 'agent', agentId })).token,
    async startWorker(worker = {}) {
      for (const stop of stops.splice(0)) await stop();
      const stop = new AbortController();
      const done = runWorker({
        client: plane.client,
        workerId: 'w1',
        concurrency: 2,
        gateway: createOpenAIResponsesGateway({ baseURL: options.model.baseURL, apiKey: 'test', model: 'test-model', maxRetries: 0 }),
        turnContext: async (job) => ({ home: await mkdtemp(path.join(homes, `${job.agentId}-`)), extraTools: worker.extraTools ?? [] }),
        signal: stop.signal,
        pollIntervalMs: 100,
        heartbeatIntervalMs: 200,
        transcriptFlushMs: 50,
        shutdownGraceMs: 0,
        ...(worker.approvals === undefined ? {} : { approvals: worker.approvals }),
      });
      stops.push(async () => {
        stop.abort();
        await done;
      });
    },
    async stopWorkers() {
      for (const stop of stops.splice(0)) await stop();
    },
    async signedInPage(token) {
      const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, colorScheme: 'light' });
      const page = await context.newPage();
      await page.goto(server.url);
      await page.getByLabel('Token').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Sections' }).waitFor();
      return page;
    },
    async close() {
      for (const stop of stops.splice(0).reverse()) await stop();
      await browser.close();
      await server.close();
      await planes.cleanup();
      await planes.close();
      await rm(homes, { recursive: true, force: true });
    },
  };
}
