// How soon a watcher hears of a change, and what watching costs the server while nothing happens:
//  - stream: the HTTP client's `changes` (GET /v1/changes, server-sent events) hears a job started by another client;
//    latency from calling `jobs.start` to the change arriving (it is committed, then told: often before the call's
//    own answer is back).
//  - poll 1.5 s: the dashboard's former loop (`jobs.list` every 1.5 s): latency from calling `jobs.start` to the
//    first list that shows the job.
// Then requests per minute an idle watcher makes in each way. Target: stream p95 <= 100 ms (the ratio printed).
// `node bench/change-stream.mjs [jobs]` (default 200) after `turbo run build`; PostgreSQL at DATABASE_URL when set,
// else PGlite in memory.
import { createControlPlane, createPGliteDriver } from '@core/control-plane';
import { createHttpControlPlaneClient } from '@core/control-plane-client';
import { createAccessTokens, serveControlPlane } from '@core/control-plane-http';

const JOBS = Number(process.argv[2] ?? 200);
const POLL_MS = 1500;
const TARGET_P95_MS = 100;

const databaseUrl = process.env.DATABASE_URL;
const plane = databaseUrl
  ? await createControlPlane({ databaseUrl, schema: `bench_changes_${process.pid}`, background: false })
  : await createControlPlane({ driver: await createPGliteDriver(), background: false });
const tokens = createAccessTokens({ driver: plane.driver, schema: plane.schema });
const { token } = await tokens.create({ kind: 'worker' });
let requests = 0;
const server = await serveControlPlane({
  client: plane.client,
  changes: plane.changes,
  authenticate: (given) => (given === undefined ? undefined : (requests++, tokens.verify(given))),
  port: 0,
  log: () => undefined,
  ratePerSecond: 1e6,
  rateBurst: 1e6,
});
const starter = createHttpControlPlaneClient({ url: server.url, token });
const watcher = createHttpControlPlaneClient({ url: server.url, token });

const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
const describe = (values) => `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;

// The stream: when each job's change arrived.
const arrivals = new Map();
let wake;
await watcher.changes.subscribe((event) => {
  if (event.kind !== 'job' || arrivals.has(event.id)) return;
  arrivals.set(event.id, performance.now());
  wake?.();
});
const streamed = [];
for (let index = 0; index < JOBS; index += 1) {
  // One agent per job: an agent may have at most 20 unfinished jobs.
  const calledAt = performance.now();
  const job = await starter.jobs.start({ agentId: `bench-${index}`, prompt: `job ${index}` });
  const deadline = performance.now() + 10_000;
  while (!arrivals.has(job.id) && performance.now() < deadline) {
    await new Promise((resolve) => {
      wake = resolve;
      setTimeout(resolve, 100);
    });
  }
  if (!arrivals.has(job.id)) throw new Error(`no change heard for job ${job.id}`);
  streamed.push(arrivals.get(job.id) - calledAt);
}

// The former poll, fewer rounds (each takes up to 1.5 s).
const polled = [];
for (let index = 0; index < 20; index += 1) {
  await new Promise((resolve) => setTimeout(resolve, Math.random() * POLL_MS));
  const calledAt = performance.now();
  const job = await starter.jobs.start({ agentId: 'bench-polled', prompt: `polled ${index}` });
  // The loop's next look comes at a uniformly random point of its 1.5 s period.
  await new Promise((resolve) => setTimeout(resolve, Math.random() * POLL_MS));
  const listed = await watcher.jobs.list({ agentId: 'bench-polled', limit: 500 });
  if (!listed.some((each) => each.id === job.id)) throw new Error('the job was not listed');
  polled.push(performance.now() - calledAt);
  await starter.jobs.cancel({ agentId: 'bench-polled', jobId: job.id });
}

// Idle: requests per minute the server answers for one watcher, measured over 6 s.
requests = 0;
await new Promise((resolve) => setTimeout(resolve, 6_000));
const streamIdle = (requests * 60) / 6;
const pollIdle = 60_000 / POLL_MS;

console.log(`change stream, ${JOBS} jobs (${databaseUrl ? 'PostgreSQL' : 'PGlite'}): ${describe(streamed)}`);
console.log(`former 1.5 s poll, 20 jobs: ${describe(polled)}`);
console.log(`idle watcher: stream ${streamIdle.toFixed(0)} requests/min (keep-alive checks of the token: 4/min), poll ${pollIdle} requests/min (x2 with the pending count)`);
console.log(`stream p95 / target ${TARGET_P95_MS} ms: ${(percentile(streamed, 95) / TARGET_P95_MS).toFixed(2)}`);

await watcher.close();
await starter.close();
await server.close();
if (databaseUrl) await plane.driver.query(`DROP SCHEMA ${plane.schema} CASCADE`);
await plane.close();
