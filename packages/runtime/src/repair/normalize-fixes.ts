/** One line per kind of fix `normalizeJsonSyntax` makes, given how many times it made it. */
export const NORMALIZE_FIX_LABELS = {
  literals: (n: number) => `${n} Python or upper-case literal${n === 1 ? '' : 's'} (True, NULL, None, …) became JSON`,
  nonFinite: (n: number) => `${n} NaN/Infinity value${n === 1 ? '' : 's'} became null`,
  separators: (n: number) => `${n} digit separator${n === 1 ? '' : 's'} removed from number${n === 1 ? '' : 's'} (1_000 → 1000)`,
  tuples: (n: number) => `${n} tuple${n === 1 ? '' : 's'} ( … ) read as array${n === 1 ? '' : 's'}`,
  comments: (n: number) => `${n} comment${n === 1 ? '' : 's'} removed`,
  brackets: (n: number) => `${n} closing bracket${n === 1 ? '' : 's'} of the wrong kind or left over fixed`,
  commas: (n: number) => `${n} doubled or trailing comma${n === 1 ? '' : 's'} removed`,
  separators_missing: (n: number) => `${n} missing comma${n === 1 ? '' : 's'} or colon${n === 1 ? '' : 's'} put back`,
  doubledQuotes: (n: number) => `${n} doubled quote${n === 1 ? '' : 's'} undone`,
  keyQuotes: (n: number) => `${n} property name${n === 1 ? '' : 's'} missing a quote closed`,
  stringQuotes: (n: number) => `${n} string value${n === 1 ? '' : 's'} missing a closing quote closed before the next property`,
  innerQuotes: (n: number) => `${n} unescaped quote${n === 1 ? '' : 's'} inside string values escaped`,
  bareValues: (n: number) => `${n} unquoted value${n === 1 ? '' : 's'} with / or @ quoted`,
  singleQuotes: (n: number) => `${n} single-quoted string${n === 1 ? '' : 's'} made double-quoted`,
  escapes: (n: number) => `${n} literal \\n/\\r/\\t between tokens became whitespace`,
  controls: (n: number) => `${n} raw control character${n === 1 ? '' : 's'} in strings escaped`,
} as const;

/** A kind of fix `normalizeJsonSyntax` makes. */
export type NormalizeFixKind = keyof typeof NORMALIZE_FIX_LABELS;

/** Counts fixes by kind, and lists them as lines for the repair log (in the order first made). */
export class FixCounter {
  private readonly counts = new Map<NormalizeFixKind, number>();

  count(kind: NormalizeFixKind): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }

  lines(): string[] {
    return [...this.counts].map(([kind, count]) => NORMALIZE_FIX_LABELS[kind](count));
  }
}
