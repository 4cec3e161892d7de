import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One line of `../shared/reference/malformed-args.dev.jsonl`. */
export interface CorpusCase {
  id: string;
  category: string;
  input: string;
  /** The object a correct repair gives, or `null` where the input must be rejected. */
  expected: Record<string, unknown> | null;
  /** Truncation cases: what closing everything would give (not the reading we keep). */
  lenient_expected?: Record<string, unknown>;
  note?: string;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The corpus file, resolved from the repository root at test time (never copied into the repo). */
export const corpusFile = path.resolve(repoRoot, '../shared/reference/malformed-args.dev.jsonl');

/** Reads every case of the corpus. */
export function readCorpus(): CorpusCase[] {
  return readFileSync(corpusFile, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CorpusCase);
}

/** Cases in the `ambiguous` category accept either reading: they are reported, not counted. */
export const isAmbiguous = (entry: CorpusCase): boolean => entry.category === 'ambiguous';
