import { controlCases } from './controls.js';
import type { CorpusCase } from './corpus-case.js';
import { literalCases } from './literals.js';
import { quoteCases } from './quotes.js';
import { secondBatchCases } from './second-batch.js';
import { structureCases } from './structure.js';
import { thirdBatchCases } from './third-batch.js';
import { truncationCases } from './truncation.js';
import { wrapperCases } from './wrappers.js';

export { corpusCase, type CorpusCase } from './corpus-case.js';
export { SOURCES } from './sources.js';
export { formatRate, formatScores, scoreCorpus, type CorpusReading, type CorpusScore, type KindScore } from './score.js';

/** The project's own corpus of malformed (and control) tool-call arguments, every case citing what it reproduces. */
export function ownCorpus(): CorpusCase[] {
  return [...literalCases, ...quoteCases, ...structureCases, ...wrapperCases, ...truncationCases, ...controlCases, ...secondBatchCases, ...thirdBatchCases];
}

/** Share of the own corpus held out from rule development (measured, never looked at while growing the ladder). */
export const HELD_OUT_PERCENT = 30;

/**
 * Which part of the own corpus a case belongs to, fixed by its id alone (FNV-1a hash, so adding a case never
 * moves another): about `HELD_OUT_PERCENT` % are `held-out`, the rest `dev`.
 */
export function corpusPart(id: string): 'dev' | 'held-out' {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index++) {
    hash ^= id.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 100 < HELD_OUT_PERCENT ? 'held-out' : 'dev';
}

/** Cases in the `ambiguous` category accept either reading: they are reported, not counted. */
export const isAmbiguous = (entry: CorpusCase): boolean => entry.category === 'ambiguous';
