import type { JsonLookahead } from './json-lookahead.js';
import type { NormalizeFixKind } from './normalize-fixes.js';

/** An open container of the normalising pass: object, array, tuple (read as an array), or a call's parentheses. */
export type Container = '{' | '[' | '(' | 'call';

/** The closer a container needs. */
export function closerOf(container: Container): string {
  return container === '{' ? '}' : container === '[' ? ']' : ')';
}

/** What the string reader needs of the normalising pass. */
export interface QuoteContext {
  readonly text: string;
  readonly out: string[];
  readonly stack: Container[];
  readonly look: JsonLookahead;
  /** The last significant token emitted outside strings (`v` after a value, `k` after a property name). */
  prev: string;
  count(kind: NormalizeFixKind): void;
  top(): Container | undefined;
  keyPosition(): boolean;
  /** Puts back a missing `,` or `:` before the token about to be emitted. */
  separate(): void;
}

/**
 * Reads the double-quoted string starting at `i` into `context.out` and answers where the scan goes on. A doubled
 * opening or closing quote is undone (`""name"`, `"Ana""`); a property name missing its closing quote is closed at
 * its colon (`{"name: "Ana"}`); in a value, a quote that cannot end the string (it is not followed by `,` and a next
 * member or element, a closing bracket, or the end) is escaped (`"print("hi")"`), and a value string running into the
 * next `"key":` ends at the comma before it; a string that reaches the end of the text stays open (it was cut off),
 * unless the text ends with exactly the closers of everything open, which its own text does not open (it lost its
 * closing quote). Raw control characters other than tab and line breaks are escaped. Never throws.
 */
export function readDoubleQuoted(context: QuoteContext, i: number): number {
  const text = context.text;
  const n = text.length;
  context.separate();
  const isKey = context.keyPosition();
  let start = i;
  // `""name"`: a doubled opening quote (an empty string is followed by whitespace or punctuation instead).
  if (text[i + 1] === '"' && i + 2 < n && !/[\s,:}\])"]/.test(text[i + 2] as string)) {
    context.count('doubledQuotes');
    start = i + 1;
  }
  /** The string's text so far (before `chunk`), in pieces. */
  const content: string[] = [];
  let inner = 0;
  let lastInner = -1;
  let chunk = start + 1;
  let j = start + 1;
  while (j < n) {
    const code = text.charCodeAt(j);
    if (code === 0x5c) {
      j += 2;
      continue;
    }
    if (code < 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) {
      content.push(text.slice(chunk, j), `\\u${code.toString(16).padStart(4, '0')}`);
      chunk = j + 1;
      context.count('controls');
      j++;
      continue;
    }
    if (code !== 0x22) {
      j++;
      continue;
    }
    const next = context.look.nextSignificant(j + 1);
    if (isKey) {
      const raw = content.join('') + text.slice(chunk, j);
      if (next === j + 1 && text[next] === '"' && text[context.look.nextSignificant(j + 2)] === ':') {
        // `""city"":` (CSV-style doubling).
        context.count('doubledQuotes');
        context.out.push(`"${raw}"`);
        context.prev = 'k';
        return j + 2;
      }
      if (next < n && text[next] !== ':') {
        const colon = raw.indexOf(':');
        if (colon >= 0) return keyClosedAtColon(context, raw, colon, start);
      }
      context.out.push(`"${raw}"`);
      context.prev = 'k';
      return j + 1;
    }
    if (text[next] === ':' && inner === 1 && context.top() === '{') {
      // `"b,"c":"d"`: the quote just read closes a property name, so the string ended at the comma before it.
      let comma = lastInner - 1;
      while (comma > start && /\s/.test(text[comma] as string)) comma--;
      if (text[comma] === ',') {
        context.count('stringQuotes');
        context.out.push(`"${text.slice(start + 1, comma).trimEnd()}",`);
        context.prev = ',';
        return lastInner;
      }
    }
    const verdict = endsString(context, j, next, inner);
    if (verdict === 'content') {
      lastInner = j;
      content.push(text.slice(chunk, j), '\\"');
      chunk = j + 1;
      inner++;
      context.count('innerQuotes');
      j++;
      continue;
    }
    context.out.push(`"${content.join('')}${text.slice(chunk, j)}"`);
    context.prev = 'v';
    if (verdict === 'doubled') {
      context.count('doubledQuotes');
      return j + 2;
    }
    return j + 1;
  }
  // The input ends inside the string: keep it open for the closing rung (it was cut off) ...
  const raw = content.join('') + text.slice(chunk, Math.min(j, n));
  if (isKey) {
    const colon = raw.indexOf(':');
    if (colon >= 0) return keyClosedAtColon(context, raw, colon, start);
  }
  // ... unless it ends with exactly the closers of everything open, which its own text does not open: then it
  // lost its closing quote (`{"a": "b, c}`).
  const closersAt = closersAtEnd(context, Math.max(chunk, start + 1));
  if (closersAt >= 0) {
    context.count('stringQuotes');
    context.out.push(`"${content.join('')}${text.slice(chunk, closersAt).trimEnd()}"`);
    context.prev = 'v';
    return closersAt;
  }
  context.out.push(`"${raw}`);
  context.prev = 'v';
  return n;
}

/** Where the trailing closers of every open container start, when `text[from, that)` leaves no bracket open; else -1. */
function closersAtEnd(context: QuoteContext, from: number): number {
  const text = context.text;
  let end = text.length;
  while (end > from && /\s/.test(text[end - 1] as string)) end--;
  // Read backwards from the end: the root's closer last, the innermost container's first.
  let at = end;
  for (const container of context.stack) {
    const c = text[at - 1];
    if (at - 1 < from || !(c === closerOf(container) || (container === '(' && c === ']'))) return -1;
    at--;
  }
  if (context.stack.length === 0) return -1;
  let depth = 0;
  for (let k = from; k < at; k++) {
    const c = text[k];
    if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && depth > 0) depth--;
  }
  return depth > 0 ? -1 : at;
}

/** `"name: "Ana"` → `"name":`, then the scan goes on right after the colon (inside what was read as the key). */
function keyClosedAtColon(context: QuoteContext, raw: string, colon: number, start: number): number {
  context.count('keyQuotes');
  context.out.push(`"${raw.slice(0, colon).trimEnd()}":`);
  context.prev = ':';
  // `raw` may hold rewritten escapes only after the first inner quote; keys are short, so map back by searching.
  const resume = context.text.indexOf(':', start + 1);
  return resume + 1;
}

/**
 * Whether the quote at `j` (in a value string) ends it, is content, or is a doubled closing quote. `inner` is the
 * number of quotes already taken as content: when it is odd, a quote right before the closing one pairs with them.
 */
function endsString(context: QuoteContext, j: number, next: number, inner: number): 'end' | 'content' | 'doubled' {
  const text = context.text;
  if (next >= text.length) return 'end';
  const d = text[next] as string;
  const top = context.top();
  if (d === '}' || d === ']' || d === '+') return 'end';
  // A property on the next line, its comma missing: `"John"\n  lastName: "Smith"`.
  if (top === '{' && /[\r\n]/.test(text.slice(j + 1, next)) && context.look.startsKey(next)) return 'end';
  if (d === ')') return top === '(' || top === 'call' ? 'end' : 'content';
  if (d === ',') {
    const after = context.look.nextSignificant(next + 1);
    if (after >= text.length) return 'end';
    const e = text[after] as string;
    // A trailing comma: `["a", "b",]`, `("src",)`.
    if (e === '}' || e === ']' || (e === ')' && (top === '(' || top === 'call'))) return 'end';
    if (top === '{') return e === '}' || e === "'" || context.look.startsKey(after) || context.look.startsMember(after) ? 'end' : 'content';
    if (top === '[' || top === '(') return context.look.startsValue(after) ? 'end' : 'content';
    return 'end';
  }
  if (d === '"') {
    if (next === j + 1 && inner % 2 === 1) return 'content';
    if (next === j + 1) {
      const afterDoubled = context.look.nextSignificant(j + 2);
      if (afterDoubled >= text.length || /[,:}\]]/.test(text[afterDoubled] as string)) return 'doubled';
    }
    if (top === '{') return context.look.startsKey(next) ? 'end' : 'content';
    if (top === '[' || top === '(') return context.look.startsElement(next) ? 'end' : 'content';
    return 'content';
  }
  // An element after whitespace, its comma missing: `["a" 6.77, true]`, `["x"\n  null]` (a quote inside the text is
  // followed by the text itself: `"5 times"`).
  if ((top === '[' || top === '(') && next > j + 1 && d !== '"' && context.look.startsValue(next)) return 'end';
  return 'content';
}
