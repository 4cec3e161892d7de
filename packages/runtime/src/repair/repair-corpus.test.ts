import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import { validateToolArguments } from '../validation/validate-tool-arguments.js';
import {
  corpusPart,
  formatScores,
  isAmbiguous,
  ownCorpus,
  readSharedCorpus,
  scoreCorpus,
  sharedCorpusFile,
  type CorpusCase,
} from '../__fixtures__/malformed-args-corpus.js';

// Every case runs against a permissive object schema (so the schema-guided coercion rung never fires here; it has
// its own tests). Double-encoded arguments are unwrapped by the text rungs.
const permissive = defineWorkerTool({
  name: 'corpus_tool',
  description: 'Accepts any object.',
  jsonSchema: { type: 'object' },
  describeActivity: () => 'corpus',
  execute: () => ({ content: 'ok' }),
});

const read = (input: string) => validateToolArguments<Record<string, unknown>>(permissive, input);

const own = ownCorpus();
const dev = own.filter((entry) => corpusPart(entry.id) === 'dev');
const heldOut = own.filter((entry) => corpusPart(entry.id) === 'held-out');

describe('repair ladder over the own corpus (src/__fixtures__/repair-corpus)', () => {
  it('has over 250 cases with unique ids, each citing what it reproduces, about 30% held out', () => {
    expect(own.length).toBeGreaterThan(250);
    expect(new Set(own.map((entry) => entry.id)).size).toBe(own.length);
    for (const entry of own) expect(entry.source, entry.id).toMatch(/^https:\/\/\S+ \(.+\)$/);
    expect(heldOut.length / own.length).toBeGreaterThan(0.22);
    expect(heldOut.length / own.length).toBeLessThan(0.38);
  });

  it('reads at least 95% of the development part and of the held-out part as expected (per-kind report)', () => {
    const devScore = scoreCorpus(dev, read);
    const heldOutScore = scoreCorpus(heldOut, read);
    console.log(
      formatScores('repair ladder, own corpus:', [
        { name: 'dev', score: devScore },
        { name: 'held-out', score: heldOutScore },
      ]),
    );
    expect(devScore.matched / devScore.total).toBeGreaterThanOrEqual(0.95);
    expect(heldOutScore.matched / heldOutScore.total).toBeGreaterThanOrEqual(0.95);
  });

  it('refuses every case whose expected value is null, with the retry hint, and never throws', () => {
    for (const entry of own) {
      const result = read(entry.input);
      if (entry.expected === null && !isAmbiguous(entry)) expect(result.ok, entry.id).toBe(false);
      if (!result.ok) expect(result.message).toContain('Fix the arguments and call the tool again.');
    }
  });

  it('reads the shared corpus only when it is there (a clone without ../shared gets undefined, not an error)', () => {
    expect(readSharedCorpus(`${sharedCorpusFile}.absent`)).toBeUndefined();
  });

  it('gives every valid control back unchanged (own keys, "__proto__" included) with no repairs', () => {
    const valid = own.filter((entry) => isValidJson(entry.input) && entry.expected !== null);
    expect(valid.length).toBeGreaterThan(20);
    for (const entry of valid) {
      const result = read(entry.input);
      expect(result.ok && result.repairs, entry.id).toEqual([]);
      expect(result.ok && isDeepStrictEqual(result.params, JSON.parse(entry.input)), entry.id).toBe(true);
    }
  });
});

const shared = readSharedCorpus();
if (shared === undefined) console.log(`shared corpus ${sharedCorpusFile} is absent: its checks are skipped (the own corpus above always runs).`);

describe.skipIf(shared === undefined)('repair ladder over the shared dev corpus (extra, when ../shared is present)', () => {
  const cases = shared ?? [];

  it('reads at least 95% of the non-ambiguous cases as expected (per-kind report)', () => {
    const score = scoreCorpus(cases, read);
    console.log(formatScores(`repair ladder, shared dev corpus (${cases.length} cases):`, [{ name: 'shared', score }]));
    expect(score.matched / score.total).toBeGreaterThanOrEqual(0.95);
  });

  it('refuses every non-ambiguous case whose expected value is null', () => {
    for (const entry of cases) {
      if (entry.expected === null && !isAmbiguous(entry)) expect(read(entry.input).ok, entry.id).toBe(false);
    }
  });

  it('keeps only what was complete for cut-off input (the strict reading, not lenient_expected)', () => {
    const truncated = cases.filter((entry: CorpusCase) => entry.lenient_expected !== undefined && !isDeepStrictEqual(entry.lenient_expected, entry.expected));
    expect(truncated.length).toBeGreaterThan(5);
    for (const entry of truncated) {
      const result = read(entry.input);
      expect(result.ok && result.params, entry.id).toEqual(entry.expected);
    }
  });
});

function isValidJson(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
