/** One repair the ladder made to a model's arguments. */
export interface ArgumentRepair {
  /**
   * Which rung: `extracted` (out of a code fence or prose), `closed_truncated` (cut-off input closed, partial
   * tail dropped), `closed_unbalanced` (wrong or stray brackets), `syntax_repaired` (the normalising pass:
   * Python / upper-case literals, tuples, digit separators, comments, brackets, quotes; then jsonrepair), `unwrapped` (double-encoded arguments decoded once), `coerced` (schema-guided type fixes).
   */
  kind: string;
  /** What was done, for logs. */
  detail: string;
}
