/** One malformed (or valid, as a control) tool-call `arguments` string and the reading a correct repair gives. */
export interface CorpusCase {
  id: string;
  /** The kind of damage (`python-literals`, `truncated-long-string`, …); `ambiguous` cases are reported, not counted. */
  category: string;
  /** The raw `arguments` string as the model sent it. */
  input: string;
  /** The object a correct repair gives, or `null` where the input must be refused. */
  expected: Record<string, unknown> | null;
  /** The public issue report, library test or documented model behaviour the case reproduces. */
  source: string;
  /** Truncation cases of the shared corpus: what closing everything would give (not the reading we keep). */
  lenient_expected?: Record<string, unknown>;
  note?: string;
}

/** Builds one case (a short form for the corpus files). */
export function corpusCase(id: string, category: string, input: string, expected: Record<string, unknown> | null, source: string, note?: string): CorpusCase {
  return note === undefined ? { id, category, input, expected, source } : { id, category, input, expected, source, note };
}
