import { jsonrepair } from 'jsonrepair';

/** The outcome of `repairJsonSyntax`. */
export type RepairedJson = { ok: true; text: string; fixes: string[] } | { ok: false; message: string };

const NON_FINITE = ['-Infinity', '+Infinity', 'Infinity', 'NaN'] as const;

/**
 * Repairs JSON-like text with `jsonrepair` (single quotes, unquoted keys and values, trailing or missing commas,
 * comments, Python `True` / `False` / `None`, escaped JSON, JSONP, ...), after a small pre-pass that works only
 * outside strings: `NaN` / `Infinity` become `null` (`jsonrepair` would make them strings) and literal `\n` /
 * `\r` / `\t` escapes between tokens become spaces; raw control characters inside strings are escaped. When that fails
 * and the text starts like CSV-escaped JSON (`{""key"":…`), the doubled quotes are undone and repair is tried again.
 * Returns the repaired JSON text (not yet parsed). Never throws.
 */
export function repairJsonSyntax(text: string): RepairedJson {
  const prepared = preparse(text);
  try {
    return { ok: true, text: jsonrepair(prepared.text), fixes: prepared.fixes };
  } catch (error) {
    // CSV-style doubled quotes (`{""a"":""b""}`), only when nothing else could read the text.
    if (DOUBLED_QUOTES.test(prepared.text)) {
      try {
        const undoubled = prepared.text.replaceAll('""', '"').replaceAll("''", "'");
        return { ok: true, text: jsonrepair(undoubled), fixes: [...prepared.fixes, 'CSV-style doubled quotes undone'] };
      } catch {
        // Report the first error.
      }
    }
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

const DOUBLED_QUOTES = /^\s*\{\s*""[^"]/;

/** The pre-pass: a linear scan tracking `"…"` and `'…'` strings. Text inside strings keeps its characters. */
function preparse(text: string): { text: string; fixes: string[] } {
  let out = '';
  let chunkStart = 0;
  let quote = 0;
  let nonFinite = 0;
  let escapes = 0;
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === 0x5c) i++;
      else if (c === quote) quote = 0;
      else if (c < 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) {
        out += `${text.slice(chunkStart, i)}\\u${c.toString(16).padStart(4, '0')}`;
        chunkStart = i + 1;
        controls++;
      }
      continue;
    }
    if (c === 0x22 || c === 0x27) {
      quote = c;
      continue;
    }
    if (c === 0x5c) {
      const next = text[i + 1];
      // `{\"a\": 1}` is escaped JSON: leave it all to jsonrepair.
      if (next === '"') return { text, fixes: [] };
      if (next === 'n' || next === 'r' || next === 't') {
        out += `${text.slice(chunkStart, i)} `;
        chunkStart = i + 2;
        i++;
        escapes++;
      }
      continue;
    }
    if (c === 0x4e /* N */ || c === 0x49 /* I */ || c === 0x2d /* - */ || c === 0x2b /* + */) {
      const before = i === 0 ? 0 : text.charCodeAt(i - 1);
      if (isWordChar(before)) continue;
      for (const word of NON_FINITE) {
        if (text.startsWith(word, i) && !isWordChar(text.charCodeAt(i + word.length))) {
          out += `${text.slice(chunkStart, i)}null`;
          chunkStart = i + word.length;
          i += word.length - 1;
          nonFinite++;
          break;
        }
      }
    }
  }
  if (chunkStart === 0) return { text, fixes: [] };
  const fixes: string[] = [];
  if (nonFinite > 0) fixes.push(`${nonFinite} NaN/Infinity value${nonFinite === 1 ? '' : 's'} became null`);
  if (escapes > 0) fixes.push(`${escapes} literal \\n/\\r/\\t between tokens became whitespace`);
  if (controls > 0) fixes.push(`${controls} raw control character${controls === 1 ? '' : 's'} in strings escaped`);
  return { text: out + text.slice(chunkStart), fixes };
}

function isWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x24 || c === 0x2e;
}
