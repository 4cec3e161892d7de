import { isDeepStrictEqual } from 'node:util';
import { jsonNestingDepth, MAX_ARGUMENT_DEPTH } from '../validation/argument-limits.js';

/** The outcome of `extractJsonValue`. */
export type ExtractedJson =
  /**
   * One object was found; `text` is its source (possibly unbalanced, for the later rungs to close or repair).
   * `copies` is how many times the same object was sent back to back (1 when once).
   */
  | { kind: 'one'; text: string; parsed: Record<string, unknown> | undefined; from: 'fence' | 'prose'; copies: number }
  /** Several non-empty objects: the caller must not guess which one was meant. */
  | { kind: 'several'; count: number }
  /** Nothing to take out (no object, or the object is the whole text). */
  | { kind: 'none' };

interface Span {
  start: number;
  end: number;
  complete: boolean;
}

const MAX_SPANS = 64;

/**
 * Takes one JSON object out of a Markdown code fence or out of prose around it. Looks in the fenced blocks first
 * (```json … ```), then in the whole text; an object that parses in the whole text wins over a fenced block that
 * does not (a fence inside a string value splits the text in the wrong places). A candidate is a top-level `{…}`
 * span (brackets counted, strings and comments skipped); complete spans are parsed with `JSON.parse`. Exactly one
 * non-empty object is taken (empty `{}` next to it are ignored, and so are exact copies of it sent back to back);
 * two or more different ones → `several`. When no span parses, a single span (or several identical ones), complete
 * or cut off, is returned as text for the closing and repair rungs. A span followed by `,` and more members, or right
 * after `[`, is not taken: that looks like a stray bracket or an array, not prose. Linear in the length of `text`
 * (plus one comparison per extra object); never throws.
 */
export function extractJsonValue(text: string): ExtractedJson {
  const trimmed = text.trim();
  let fenced: ExtractedJson = { kind: 'none' };
  if (trimmed.includes('```')) {
    const blocks = trimmed.split('```').filter((_, index) => index % 2 === 1);
    fenced = pickFromRegions(blocks, 'fence', trimmed);
    if (fenced.kind === 'several' || (fenced.kind === 'one' && fenced.parsed !== undefined)) return fenced;
  }
  const prose = pickFromRegions([trimmed], 'prose', trimmed);
  if (fenced.kind === 'one' && !(prose.kind === 'one' && prose.parsed !== undefined)) return fenced;
  return prose;
}

function pickFromRegions(regions: string[], from: 'fence' | 'prose', whole: string): ExtractedJson {
  const parsedObjects: Array<{ text: string; value: Record<string, unknown> }> = [];
  const unparsed: string[] = [];
  for (const region of regions) {
    for (const span of findObjectSpans(region)) {
      const source = region.slice(span.start, span.end);
      if (from === 'prose' && ((span.complete && looksContinued(region, span.end)) || insideArray(region, span.start))) return { kind: 'none' };
      const value = span.complete ? parseObject(source) : undefined;
      // A span that does not parse and is followed by more JSON (`", "b": 1}`) was cut short by quotes that are off:
      // the brackets were miscounted, so it is no object in prose.
      if (value === undefined && from === 'prose' && span.complete && /^\s*["',:}\]]/.test(region.slice(span.end, span.end + 64))) return { kind: 'none' };
      if (value === undefined) unparsed.push(source);
      else parsedObjects.push({ text: source, value });
    }
  }
  const nonEmpty = parsedObjects.filter((candidate) => Object.keys(candidate.value).length > 0);
  const first = nonEmpty[0];
  // The same object sent twice (or more) back to back is one call; different objects are never guessed between.
  if (first !== undefined && nonEmpty.some((candidate) => !isDeepStrictEqual(candidate.value, first.value))) {
    return { kind: 'several', count: nonEmpty.length };
  }
  const chosen = first ?? parsedObjects[0];
  if (chosen !== undefined) {
    if (chosen.text === whole) return { kind: 'none' };
    return { kind: 'one', text: chosen.text, parsed: chosen.value, from, copies: Math.max(1, nonEmpty.length) };
  }
  const source = unparsed[0];
  if (source !== undefined && unparsed.every((other) => other.trim() === source.trim())) {
    if (source === whole) return { kind: 'none' };
    return { kind: 'one', text: source, parsed: undefined, from, copies: unparsed.length };
  }
  return { kind: 'none' };
}

/**
 * Top-level `{…}` spans of `text`: outside a span quotes mean nothing (prose); inside, double-quoted strings,
 * single-quoted strings that start a token (after `{`, `[`, `,` or `:`) and `//` / `/* … *\/` comments are skipped.
 */
function findObjectSpans(text: string): Span[] {
  const spans: Span[] = [];
  let i = text.indexOf('{');
  while (i >= 0 && spans.length < MAX_SPANS) {
    let depth = 0;
    let quote = 0;
    let previous = 0;
    let j = i;
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (quote !== 0) {
        if (c === 0x5c) j++;
        else if (c === quote) quote = 0;
        continue;
      }
      if (c === 0x22 || (c === 0x27 && (previous === 0x7b || previous === 0x5b || previous === 0x2c || previous === 0x3a))) quote = c;
      else if (c === 0x2f && text.charCodeAt(j + 1) === 0x2a) {
        const end = text.indexOf('*/', j + 2);
        j = end < 0 ? text.length - 1 : end + 1;
        continue;
      } else if (c === 0x2f && text.charCodeAt(j + 1) === 0x2f && previous !== 0x3a) {
        const end = text.indexOf('\n', j);
        j = end < 0 ? text.length - 1 : end;
        continue;
      }
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) previous = c;
      if (quote !== 0) continue;
      if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) break;
      }
    }
    if (j >= text.length) {
      spans.push({ start: i, end: text.length, complete: false });
      break;
    }
    spans.push({ start: i, end: j + 1, complete: true });
    i = text.indexOf('{', j + 1);
  }
  return spans;
}

/**
 * After the span: a comma and more members (`{"a":1}, "b":2}`) means the brackets are off, not that prose follows.
 * A comma and another object (`{"a":1}, {"a":1}`) is a second object.
 */
function looksContinued(text: string, end: number): boolean {
  const rest = text.slice(end).trimStart();
  if (!rest.startsWith(',')) return false;
  const next = rest.slice(1).trim();
  return next !== '' && !next.startsWith('{');
}

/** The span is an element of an array (`[{…}] junk`): taking it out would guess at a different root. */
function insideArray(text: string, start: number): boolean {
  let i = start - 1;
  while (i >= 0 && /\s/.test(text[i] as string)) i--;
  return text[i] === '[';
}

function parseObject(source: string): Record<string, unknown> | undefined {
  if (jsonNestingDepth(source, MAX_ARGUMENT_DEPTH) > MAX_ARGUMENT_DEPTH) return undefined;
  try {
    const value: unknown = JSON.parse(source);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The text without a Markdown fence at its very start (```` ```json ```` and the line break after it) or its very
 * end (```` ``` ````, possibly followed by a closing word such as `json`): what is left when a fence was not
 * closed, or a stray one follows the value (`{"a": "b}```). `undefined` when there is none. Never throws.
 */
export function stripOuterFences(text: string): string | undefined {
  let result = text.trim();
  const opening = /^```[\w-]*[ \t]*\r?\n?/.exec(result);
  if (opening !== null) result = result.slice(opening[0].length);
  const closing = /\s*```[\w-]*$/.exec(result);
  if (closing !== null) result = result.slice(0, closing.index);
  return opening === null && closing === null ? undefined : result;
}

/**
 * When the whole text is one object's text sent twice back to back (`{…}{…}`, with only whitespace between), the
 * first copy; else `undefined`. For copies too damaged for `extractJsonValue` to find their brackets. Linear.
 */
export function firstOfRepeatedText(text: string): string | undefined {
  const trimmed = text.trim();
  const middle = Math.floor(trimmed.length / 2);
  for (let at = Math.max(1, middle - 4); at <= middle + 4 && at < trimmed.length; at++) {
    if (trimmed[at] !== '{') continue;
    const first = trimmed.slice(0, at).trimEnd();
    if (first.length > 1 && first === trimmed.slice(at)) return first;
  }
  return undefined;
}
