/** The input-token window of a model family, by the start of its name (the first match wins). */
const KNOWN_WINDOWS: ReadonlyArray<readonly [prefix: string, tokens: number]> = [
  // GPT-5 family: 400k in all, of which up to 128k are output, so 272k of input.
  ['gpt-5', 272_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-4o', 128_000],
  ['chatgpt-4o', 128_000],
  ['gpt-4-turbo', 128_000],
  ['o1-mini', 128_000],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4', 200_000],
  ['codex-mini', 200_000],
];

/** The window assumed for a model the table does not know. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** Share of the window at which the history is compacted before the next request (default 0.8). */
export const DEFAULT_COMPACTION_THRESHOLD = 0.8;

/** Share of the window a local compaction aims for (default 0.4), so the turn has room to go on. */
export const DEFAULT_COMPACTION_TARGET = 0.4;

/**
 * The input tokens `model` takes: `overrides[model]` when given (exact name), else the table of known families
 * (GPT-5 272k of input, gpt-4.1 about 1M, gpt-4o 128k, o-series 200k), else 128k. A dated or suffixed name
 * (`gpt-4o-2024-08-06`, `gpt-5.4-mini`) takes its family's window.
 */
export function contextWindowOf(model: string | undefined, overrides: Readonly<Record<string, number>> = {}): number {
  if (model === undefined) return DEFAULT_CONTEXT_WINDOW;
  if (Object.hasOwn(overrides, model)) return overrides[model] as number;
  const name = model.toLowerCase().replace(/^openai\//, '');
  for (const [prefix, tokens] of KNOWN_WINDOWS) if (name.startsWith(prefix)) return tokens;
  return DEFAULT_CONTEXT_WINDOW;
}
