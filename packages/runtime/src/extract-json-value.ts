import { jsonNestingDepth, MAX_ARGUMENT_DEPTH } from './argument-limits.js';

/** The outcome of `extractJsonValue`. */
export type ExtractedJson =
  /** One object was found; `text` is its source (possibly unbalanced, for the later rungs to close or repair). */
  | { kind: 'one'; text: string; parsed: Record<string, unknown> | undefined; from: 'fence' | 'prose' }
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
 * (```json … ```), then in the whole text. A candidate is a top-level `{…}` span (brackets counted, strings
 * skipped); complete spans are parsed with `JSON.parse`. Exactly one non-empty object is taken (empty `{}` next
 * to it are ignored); two or more → `several`. When no span parses, a single span (complete or cut off) is
 * returned as text for the closing and repair rungs. A span followed by `,` and more text, or right after `[`,
 * is not taken: that looks like a stray bracket or an array, not prose. Linear in the length of `text`; never throws.
 */
export function extractJsonValue(text: string): ExtractedJson {
  const trimmed = text.trim();
  if (trimmed.includes('```')) {
    const blocks = trimmed.split('```').filter((_, index) => index % 2 === 1);
    const fenced = pickFromRegions(blocks, 'fence', trimmed);
    if (fenced.kind !== 'none') return fenced;
  }
  return pickFromRegions([trimmed], 'prose', trimmed);
}

function pickFromRegions(regions: string[], from: 'fence' | 'prose', whole: string): ExtractedJson {
  const parsedObjects: Array<{ text: string; value: Record<string, unknown> }> = [];
  const unparsed: string[] = [];
  for (const region of regions) {
    for (const span of findObjectSpans(region)) {
      const source = region.slice(span.start, span.end);
      if (from === 'prose' && ((span.complete && looksContinued(region, span.end)) || insideArray(region, span.start))) return { kind: 'none' };
      const value = span.complete ? parseObject(source) : undefined;
      if (value === undefined) unparsed.push(source);
      else parsedObjects.push({ text: source, value });
    }
  }
  const nonEmpty = parsedObjects.filter((candidate) => Object.keys(candidate.value).length > 0);
  if (nonEmpty.length > 1) return { kind: 'several', count: nonEmpty.length };
  const chosen = nonEmpty[0] ?? parsedObjects[0];
  if (chosen !== undefined) {
    if (chosen.text === whole) return { kind: 'none' };
    return { kind: 'one', text: chosen.text, parsed: chosen.value, from };
  }
  if (unparsed.length === 1) {
    const source = unparsed[0] as string;
    if (source === whole) return { kind: 'none' };
    return { kind: 'one', text: source, parsed: undefined, from };
  }
  return { kind: 'none' };
}

/** Top-level `{…}` spans of `text`: outside a span quotes mean nothing (prose); inside, strings are skipped. */
function findObjectSpans(text: string): Span[] {
  const spans: Span[] = [];
  let i = text.indexOf('{');
  while (i >= 0 && spans.length < MAX_SPANS) {
    let depth = 0;
    let inString = false;
    let j = i;
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (inString) {
        if (c === 0x5c) j++;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
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

/** After the span: a comma and more text (`{"a":1}, "b":2}`) means the brackets are off, not that prose follows. */
function looksContinued(text: string, end: number): boolean {
  const rest = text.slice(end).trimStart();
  return rest.startsWith(',') && rest.slice(1).trim() !== '';
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
