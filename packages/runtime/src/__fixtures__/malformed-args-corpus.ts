import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CorpusCase } from './repair-corpus/index.js';

export { corpusPart, formatRate, formatScores, isAmbiguous, ownCorpus, scoreCorpus, type CorpusCase, type CorpusScore } from './repair-corpus/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The shared dev corpus beside the repository (public data we may read, never copy into the repo). */
export const sharedCorpusFile = path.resolve(repoRoot, '../shared/reference/malformed-args.dev.jsonl');

/** Every case of the shared dev corpus, or `undefined` when the file is not there (a user's clone). */
export function readSharedCorpus(file: string = sharedCorpusFile): CorpusCase[] | undefined {
  if (!existsSync(file)) return undefined;
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CorpusCase);
}
