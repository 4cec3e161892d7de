import { controlPlanes } from '@core/control-plane/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadBrainCorpus } from './__fixtures__/brain-corpus.js';

/*
 * Recall quality on the fixture corpus (200+ pages, 50+ paraphrased queries, each naming the page it should
 * find): the share of queries whose page is among the first five hits must stay above a floor, on both drivers.
 * The benchmark (bench/recall.mjs) prints hit@1, hit@5 and latency on 10,000 pages.
 */
const corpus = loadBrainCorpus();
const HIT_AT_5_FLOOR = 0.8;

describe.each(['postgres', 'pglite'] as const)('recall quality on %s', (kind) => {
  const planes = controlPlanes(kind);
  afterEach(() => planes.cleanup());
  afterAll(() => planes.close());

  it(`finds the expected page in the first five hits for at least ${HIT_AT_5_FLOOR * 100} % of the queries`, async () => {
    expect(corpus.pages.length).toBeGreaterThanOrEqual(200);
    expect(corpus.queries.length).toBeGreaterThanOrEqual(50);
    const { client } = await planes.open();
    await client.brain.importPages({ agentId: 'eval', pages: corpus.pages });
    let hitAt1 = 0;
    let hitAt5 = 0;
    const misses: string[] = [];
    for (const { query, page } of corpus.queries) {
      const titles = (await client.brain.recall({ agentId: 'eval', query, limit: 5 })).hits.map((hit) => hit.title);
      if (titles[0] === page) hitAt1 += 1;
      if (titles.includes(page)) hitAt5 += 1;
      else misses.push(`"${query}" → ${page} (got: ${titles.join(' | ') || 'nothing'})`);
    }
    const total = corpus.queries.length;
    console.log(`recall quality on ${kind}: hit@1 ${(hitAt1 / total).toFixed(3)}, hit@5 ${(hitAt5 / total).toFixed(3)} over ${total} queries; misses:\n${misses.join('\n')}`);
    expect(hitAt5 / total, misses.join('\n')).toBeGreaterThanOrEqual(HIT_AT_5_FLOOR);
  });
});
