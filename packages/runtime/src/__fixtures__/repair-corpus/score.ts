import { isDeepStrictEqual } from 'node:util';
import type { CorpusCase } from './corpus-case.js';

/** How a reader answered one input: the params it would give the tool, or a refusal. */
export type CorpusReading = { ok: true; params: unknown } | { ok: false };

/** Matched / total for one kind (category) of damage. */
export interface KindScore {
  kind: string;
  matched: number;
  total: number;
}

/** The score of a reader over a list of cases: totals, per kind, and one line per miss. */
export interface CorpusScore {
  matched: number;
  total: number;
  kinds: KindScore[];
  misses: string[];
  /** `ambiguous` cases: either reading is acceptable, so they are listed, not counted. */
  ambiguous: string[];
}

/** A case is matched when the reader gives exactly `expected` (deep, own keys), or refuses where `expected` is null. */
export function scoreCorpus(cases: readonly CorpusCase[], read: (input: string) => CorpusReading): CorpusScore {
  const kinds = new Map<string, KindScore>();
  const misses: string[] = [];
  const ambiguous: string[] = [];
  let matched = 0;
  let total = 0;
  for (const entry of cases) {
    const reading = read(entry.input);
    const ok = entry.expected === null ? !reading.ok : reading.ok && isDeepStrictEqual(reading.params, entry.expected);
    const got = reading.ok ? JSON.stringify(reading.params)?.slice(0, 160) : 'refused';
    if (entry.category === 'ambiguous') {
      ambiguous.push(`${ok ? 'expected reading' : 'other reading   '} ${entry.id}: ${got}`);
      continue;
    }
    const kind = kinds.get(entry.category) ?? { kind: entry.category, matched: 0, total: 0 };
    kind.total++;
    total++;
    if (ok) {
      kind.matched++;
      matched++;
    } else {
      misses.push(`${entry.id}: expected ${JSON.stringify(entry.expected)?.slice(0, 160)}, got ${got}`);
    }
    kinds.set(entry.category, kind);
  }
  return { matched, total, kinds: [...kinds.values()].sort((a, b) => a.kind.localeCompare(b.kind)), misses, ambiguous };
}

/** `matched/total (rate%)`. */
export function formatRate(score: { matched: number; total: number }): string {
  return `${score.matched}/${score.total} (${score.total === 0 ? '—' : ((score.matched / score.total) * 100).toFixed(1)}%)`;
}

/** A report of several scores side by side: one row per kind, one column per score. */
export function formatScores(title: string, columns: ReadonlyArray<{ name: string; score: CorpusScore }>): string {
  const kindNames = [...new Set(columns.flatMap((column) => column.score.kinds.map((kind) => kind.kind)))].sort();
  const cell = (score: CorpusScore, kind: string): string => {
    const found = score.kinds.find((entry) => entry.kind === kind);
    return found === undefined ? '' : `${found.matched}/${found.total}`;
  };
  const lines = [
    title,
    `  ${'kind'.padEnd(24)}${columns.map((column) => column.name.padStart(20)).join('')}`,
    ...kindNames.map((kind) => `  ${kind.padEnd(24)}${columns.map((column) => cell(column.score, kind).padStart(20)).join('')}`),
    `  ${'total'.padEnd(24)}${columns.map((column) => formatRate(column.score).padStart(20)).join('')}`,
  ];
  for (const column of columns) {
    if (column.score.misses.length > 0) lines.push(`  misses (${column.name}):`, ...column.score.misses.map((miss) => `    ${miss}`));
    if (column.score.ambiguous.length > 0) lines.push(`  ambiguous, not counted (${column.name}):`, ...column.score.ambiguous.map((line) => `    ${line}`));
  }
  return lines.join('\n');
}
