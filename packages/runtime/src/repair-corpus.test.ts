import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { defineWorkerTool } from './define-worker-tool.js';
import { validateToolArguments } from './validate-tool-arguments.js';
import { isAmbiguous, readCorpus, type CorpusCase } from './__fixtures__/malformed-args-corpus.js';

const cases = readCorpus();

// The corpus has no schema: every case runs against a permissive object schema (so the schema-guided coercion
// rung never fires here; it has its own tests). Double-encoded arguments are unwrapped by the text rungs.
const permissive = defineWorkerTool({
  name: 'corpus_tool',
  description: 'Accepts any object.',
  jsonSchema: { type: 'object' },
  describeActivity: () => 'corpus',
  execute: () => ({ content: 'ok' }),
});

function outcome(entry: CorpusCase): { matched: boolean; got: unknown } {
  const result = validateToolArguments<Record<string, unknown>>(permissive, entry.input);
  if (entry.expected === null) return { matched: !result.ok, got: result.ok ? result.params : 'rejected' };
  return { matched: result.ok && isDeepStrictEqual(result.params, entry.expected), got: result.ok ? result.params : result.message };
}

describe('repair ladder over ../shared/reference/malformed-args.dev.jsonl', () => {
  it('reads the corpus', () => {
    expect(cases.length).toBeGreaterThan(100);
  });

  it('matches the expected repair for at least 95% of the non-ambiguous cases', () => {
    const perCategory = new Map<string, { total: number; matched: number }>();
    const misses: string[] = [];
    const ambiguous: string[] = [];
    let total = 0;
    let matched = 0;
    for (const entry of cases) {
      const { matched: ok, got } = outcome(entry);
      if (isAmbiguous(entry)) {
        ambiguous.push(`${ok ? 'expected reading' : 'other reading  '} ${entry.id}: ${JSON.stringify(got).slice(0, 120)}`);
        continue;
      }
      const stats = perCategory.get(entry.category) ?? { total: 0, matched: 0 };
      stats.total++;
      total++;
      if (ok) {
        stats.matched++;
        matched++;
      } else {
        misses.push(`${entry.id}: expected ${JSON.stringify(entry.expected)}, got ${JSON.stringify(got).slice(0, 200)}`);
      }
      perCategory.set(entry.category, stats);
    }
    const rows = [...perCategory.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([category, stats]) => `  ${category.padEnd(22)} ${stats.matched}/${stats.total}`);
    console.log(
      [
        `repair corpus: ${matched}/${total} non-ambiguous cases matched (${((matched / total) * 100).toFixed(1)}%)`,
        ...rows,
        `ambiguous (either reading acceptable, not counted): ${ambiguous.length}`,
        ...ambiguous.map((line) => `  ${line}`),
        `misses: ${misses.length}`,
        ...misses.map((line) => `  ${line}`),
      ].join('\n'),
    );
    expect(matched / total).toBeGreaterThanOrEqual(0.95);
  });

  it('never throws on any corpus input, and refuses every case whose expected value is null', () => {
    for (const entry of cases) {
      const result = validateToolArguments(permissive, entry.input);
      if (entry.expected === null && !isAmbiguous(entry)) expect(result.ok, entry.id).toBe(false);
      if (!result.ok) expect(result.message).toContain('Fix the arguments and call the tool again.');
    }
  });

  it('keeps only what was complete for cut-off input (the strict reading, not lenient_expected)', () => {
    const truncated = cases.filter((entry) => entry.lenient_expected !== undefined && !isDeepStrictEqual(entry.lenient_expected, entry.expected));
    expect(truncated.length).toBeGreaterThan(5);
    for (const entry of truncated) {
      const result = validateToolArguments<Record<string, unknown>>(permissive, entry.input);
      expect(result.ok && result.params, entry.id).toEqual(entry.expected);
    }
  });
});
