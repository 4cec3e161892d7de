/** Edit distance (insertions, deletions, substitutions, adjacent swaps) between two short words. */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidate a mistyped word most likely meant (`wokrer` → `worker`, `--hom` → `--home`), or `undefined` when none
 * is close: at most 2 edits (1 for words of up to 4 characters), or the word is a prefix of exactly one candidate.
 * Never the word itself.
 */
export function closestMatch(word: string, candidates: readonly string[]): string | undefined {
  // The very word typed is never what it "meant" (it was refused for another reason than spelling).
  candidates = candidates.filter((candidate) => candidate !== word);
  const lower = word.toLowerCase();
  const prefixed = candidates.filter((candidate) => lower.length >= 3 && candidate.toLowerCase().startsWith(lower));
  if (prefixed.length === 1) return prefixed[0];
  let best: { candidate: string; edits: number } | undefined;
  for (const candidate of candidates) {
    const edits = distance(lower, candidate.toLowerCase());
    if (best === undefined || edits < best.edits) best = { candidate, edits };
  }
  if (best === undefined) return undefined;
  const allowed = word.replace(/^-+/, '').length <= 4 ? 1 : 2;
  return best.edits <= allowed ? best.candidate : undefined;
}

/** ` Did you mean X?` when a candidate is close, else an empty string (to end a sentence with). */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const match = closestMatch(word, candidates);
  return match === undefined ? '' : ` Did you mean ${match}?`;
}
