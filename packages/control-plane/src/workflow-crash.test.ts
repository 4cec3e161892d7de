import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlPlanes, testDatabaseUrl } from './testing.js';
import type { ControlPlane } from './create-control-plane.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const packageRoot = path.resolve(here, '..');
const outDir = path.join(packageRoot, 'node_modules/.cache/workflow-crash-worker');

/** The worker fixture, bundled from source (Node 20 cannot run TypeScript), its npm imports left to node_modules. */
async function buildWorker(): Promise<string> {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: packageRoot,
    resolve: { conditions: ['ankole-source', 'import', 'node'] },
    ssr: { noExternal: [/^@core\//], resolve: { conditions: ['ankole-source', 'import', 'node'], externalConditions: ['import', 'node'] } },
    build: {
      ssr: path.join(here, '__fixtures__/workflow-crash-worker.ts'),
      outDir,
      emptyOutDir: true,
      minify: false,
      rollupOptions: { output: { format: 'es', entryFileNames: 'worker.mjs' } },
    },
  });
  return path.join(outDir, 'worker.mjs');
}

interface WorkerProcess {
  name: string;
  child: ChildProcess;
  lines: () => string[];
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  kill: () => Promise<void>;
}

const SCRIPT = `
const notes = await Promise.all(input.topics.map((t) => task({ title: 'Research ' + t, prompt: 'About ' + t,
  result: { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } } })));
let spin = 0;
for (let i = 0; i < input.spin; i++) spin = (spin + i) % 1000003;
const summary = await task({ title: 'Summarise', prompt: notes.map((note) => note.text).join('; '),
  result: { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } } });
return { summary: summary.text, notes: notes.map((note) => note.text), spin };
`;

describe('workflows survive SIGKILLed workers (PostgreSQL, real processes)', () => {
  const planes = controlPlanes('postgres');
  const workers: WorkerProcess[] = [];
  let workerPath: string;

  beforeAll(async () => {
    workerPath = await buildWorker();
  }, 60_000);
  afterAll(async () => {
    for (const worker of workers) await worker.kill();
    await planes.cleanup();
  });

  function startWorker(plane: ControlPlane, name: string, holdMs: number): WorkerProcess {
    const child = spawn(process.execPath, [workerPath, testDatabaseUrl(), plane.schema, name, String(holdMs)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let errors = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    const worker: WorkerProcess = {
      name,
      child,
      lines: () => output.split('\n').filter((line) => line !== ''),
      async waitFor(pattern, timeoutMs = 30_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const match = output.match(pattern);
          if (match !== null) return match;
          if (Date.now() > deadline) throw new Error(`${name} did not print ${String(pattern)} in ${timeoutMs} ms:\n${output}\n${errors}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      },
      async kill() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
      },
    };
    workers.push(worker);
    return worker;
  }

  it('completes the workflow with every task result stored once when one worker dies during a task and once during an advance', async () => {
    const plane = await planes.open();
    const topics = ['owls', 'bats', 'moths', 'newts'];
    const started = await plane.client.workflows.start({ agentId: 'a', title: 'Crash', script: SCRIPT, input: { topics, spin: 1_000_000 } });
    const stateOf = async () =>
      (
        await plane.driver.query<{ advance_token: string | null; settled_count: number; status: string }>(
          `SELECT advance_token, settled_count, status FROM ${plane.schema}.workflow WHERE id = $1`,
          [started.id],
        )
      ).rows[0]!;

    // Worker "slow" takes a task and never finishes it; "fast" does the rest. Kill "slow" mid-task.
    const slow = startWorker(plane, 'slow', 600_000);
    const fast = startWorker(plane, 'fast', 50);
    const [, killedTask] = await slow.waitFor(/claimed (\S+)/);
    await slow.kill();

    // "fast" takes the dead worker's task over once its lease expires and finishes the fan-out; the advance after it
    // spins for a while (the same loop on every replay from then on). Kill "fast" while it holds that advance. The
    // spin is what makes that window wide enough to see by polling: at 100,000 rounds (tens of ms) a busy machine's
    // poll once missed it and found the workflow already finished; a million rounds take a few hundred ms of QuickJS.
    for (;;) {
      const state = await stateOf();
      if (state.settled_count === topics.length && state.advance_token !== null) break;
      expect(state.status).toBe('running');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await fast.kill();
    const afterKill = await stateOf();
    expect(afterKill).toMatchObject({ status: 'running', settled_count: topics.length });
    expect(afterKill.advance_token).not.toBeNull();

    // Two fresh workers finish it: the abandoned advance is claimed again after its lease.
    const finishers = [startWorker(plane, 'again-1', 50), startWorker(plane, 'again-2', 50)];
    for (;;) {
      if ((await stateOf()).status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const worker of finishers) await worker.kill();

    const done = await plane.client.workflows.get({ agentId: 'a', workflowId: started.id });
    expect(done.status, done.error ?? '').toBe('succeeded');
    const result = done.result as { summary: string; notes: string[] };
    expect(result.notes.map((note) => note.replace(/ by .*$/, ''))).toEqual(topics.map((topic) => `Research ${topic}`));
    expect(result.summary).toMatch(/^Summarise by again-\d$/);
    expect(done.tasks.map((task) => [task.sequence, task.status])).toEqual([0, 1, 2, 3, 4].map((sequence) => [sequence, 'succeeded']));
    expect(done.tasks.find((task) => task.id === killedTask)).toMatchObject({ attempts: 2, workerId: 'fast', result: { text: expect.stringMatching(/by fast$/) } });

    // Each task's result was accepted exactly once, across all processes; the killed worker submitted nothing.
    const submitted = workers.flatMap((worker) => worker.lines().filter((line) => line.startsWith('submitted ')).map((line) => line.split(' ')[1]));
    expect(submitted.sort()).toEqual(done.tasks.map((task) => task.id).sort());
    expect(slow.lines().some((line) => line.startsWith('submitted'))).toBe(false);
    expect(workers.flatMap((worker) => worker.lines()).some((line) => line.startsWith('refused'))).toBe(false);
    // The killed advance stored nothing: the replays count only advances that finished.
    expect(done.replays).toBeGreaterThanOrEqual(3);
  });
});
