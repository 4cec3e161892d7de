import { jsonrepair } from 'jsonrepair';

/** The outcome of `repairJsonSyntax`. */
export type RepairedJson = { ok: true; text: string; fixes: string[] } | { ok: false; message: string };

const NON_FINITE = ['-Infinity', '+Infinity', 'Infinity', 'NaN'] as const;

/**
 * Repairs JSON-like text with `jsonrepair` (single quotes, unquoted keys and values, trailing or missing commas,
 * comments, Python `True` / `False` / `None`, escaped JSON, JSONP, ...). Give it text `normalizeJsonSyntax` has
 * already been over. When `jsonrepair` fails and the text starts like CSV-escaped JSON (`{""key"":…`), the doubled
 * quotes are undone and repair is tried again. Returns the repaired JSON text (not yet parsed). Never throws.
 */
export function repairJsonSyntax(text: string): RepairedJson {
  try {
    return { ok: true, text: jsonrepair(text), fixes: [] };
  } catch (error) {
    // CSV-style doubled quotes (`{""a"":""b""}`), only when nothing else could read the text.
    if (DOUBLED_QUOTES.test(text)) {
      try {
        const undoubled = text.replaceAll('""', '"').replaceAll("''", "'");
        return { ok: true, text: jsonrepair(undoubled), fixes: ['CSV-style doubled quotes undone'] };
      } catch {
        // Report the first error.
      }
    }
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

const DOUBLED_QUOTES = /^\s*\{\s*""[^"]/;
