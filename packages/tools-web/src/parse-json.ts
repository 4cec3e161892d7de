/** The outcome of {@link parseJson}. */
export type ParsedJson = { ok: true; value: unknown } | { ok: false; message: string };

/** Parses untrusted JSON text without throwing: the one place this package calls `JSON.parse`. */
export function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
