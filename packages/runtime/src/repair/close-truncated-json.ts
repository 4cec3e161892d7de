/** The outcome of `closeTruncatedJson`. */
export type ClosedJson =
  | {
      ok: true;
      value: unknown;
      /** The input ended before the value did: open strings, numbers, keys were dropped and brackets closed. */
      truncated: boolean;
      /** What was done, for the repair log (empty when the text was plain JSON). */
      fixes: string[];
    }
  | {
      ok: false;
      /** Offset of the first character that cannot be read as (truncated) JSON. */
      position: number;
      /** What was expected there, for the model. */
      message: string;
      /** The text has a structural mistake no later rung should guess at (a key inside an array). */
      refuse?: boolean;
    };

type Frame = { kind: 'object'; value: Record<string, unknown>; key: string | undefined } | { kind: 'array'; value: unknown[] };

/** What the parser expects next. */
const enum Expect {
  Value,
  /** Just after `[`: a value or `]`. */
  ValueOrEnd,
  /** Just after `{`: a key or `}`. */
  KeyOrEnd,
  Key,
  Colon,
  /** After a value inside a container: `,` or the closing bracket. */
  CommaOrEnd,
  /** The root value is complete. */
  Done,
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const NUMBER_CHARS = /[-+0-9.eE]+/y;
const LITERALS: ReadonlyArray<readonly [string, unknown, string | undefined]> = [
  ['true', true, undefined],
  ['false', false, undefined],
  ['null', null, undefined],
  ['NaN', null, 'NaN became null'],
  ['Infinity', null, 'Infinity became null'],
  ['-Infinity', null, '-Infinity became null'],
  ['True', true, 'Python True became true'],
  ['False', false, 'Python False became false'],
  ['None', null, 'Python None became null'],
];
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Reads JSON that may be cut off or have unbalanced brackets, keeping only what was complete: an unterminated
 * string, a number or literal that may go on, a key without its value are dropped, and every open bracket is
 * closed. A closing bracket of the wrong kind closes the innermost open container; a stray `}` that closes the
 * root object early, followed by `,` and more members, is skipped. Also reads `NaN` / `Infinity` (as `null`),
 * Python `True` / `False` / `None`, and raw control characters inside strings. Anything else that is not JSON
 * fails with the position, so the caller can move on to syntax repair.
 *
 * Iterative (no recursion) and linear in the length of `text`. Never throws.
 */
export function closeTruncatedJson(text: string): ClosedJson {
  const n = text.length;
  const stack: Frame[] = [];
  const fixes: string[] = [];
  let root: unknown;
  let expect: Expect = Expect.Value;
  let i = 0;

  const fail = (message: string): ClosedJson => ({ ok: false, position: i, message });

  const emit = (value: unknown): void => {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      root = value;
      expect = Expect.Done;
    } else if (top.kind === 'array') {
      top.value.push(value);
      expect = Expect.CommaOrEnd;
    } else {
      setProperty(top.value, top.key as string, value);
      top.key = undefined;
      expect = Expect.CommaOrEnd;
    }
  };

  const close = (bracket: string): void => {
    const frame = stack.pop() as Frame;
    const wanted = frame.kind === 'object' ? '}' : ']';
    if (bracket !== wanted) fixes.push(`"${bracket}" at position ${i} closed an ${frame.kind} (read as "${wanted}")`);
    i++;
    emit(frame.value);
  };

  /** The input ended: drop the partial tail, close what is open. */
  const endOfInput = (partial: string | undefined): ClosedJson => {
    if (expect === Expect.Done && partial === undefined) return { ok: true, value: root, truncated: false, fixes };
    if (stack.length === 0 && root === undefined) return fail('the input ends before any JSON value');
    const dropped: string[] = [];
    if (partial !== undefined) dropped.push(partial);
    const top = stack[stack.length - 1];
    if (top !== undefined && top.kind === 'object' && top.key !== undefined) dropped.push(`key "${truncate(top.key)}" without a value`);
    const closed = stack.length;
    while (stack.length > 0) {
      const frame = stack.pop() as Frame;
      if (frame.kind === 'object') frame.key = undefined;
      const parent = stack[stack.length - 1];
      if (parent === undefined) root = frame.value;
      else if (parent.kind === 'array') parent.value.push(frame.value);
      else {
        setProperty(parent.value, parent.key as string, frame.value);
        parent.key = undefined;
      }
    }
    fixes.push(`input ends early: ${dropped.length > 0 ? `dropped ${dropped.join(' and ')}, ` : ''}closed ${closed} open bracket${closed === 1 ? '' : 's'}`);
    return { ok: true, value: root, truncated: true, fixes };
  };

  for (;;) {
    while (i < n && isWhitespace(text.charCodeAt(i))) i++;
    if (i >= n) return endOfInput(undefined);
    const c = text[i] as string;
    const top = stack[stack.length - 1];

    switch (expect as Expect) {
      case Expect.ValueOrEnd:
      case Expect.KeyOrEnd:
        if (c === '}' || c === ']') {
          close(c);
          continue;
        }
        expect = expect === Expect.ValueOrEnd ? Expect.Value : Expect.Key;
        continue;

      case Expect.Value: {
        if (c === '{') {
          stack.push({ kind: 'object', value: {}, key: undefined });
          expect = Expect.KeyOrEnd;
          i++;
          continue;
        }
        if (c === '[') {
          stack.push({ kind: 'array', value: [] });
          expect = Expect.ValueOrEnd;
          i++;
          continue;
        }
        if (c === '"') {
          const read = readString(text, i, fixes);
          if (read === undefined) {
            if (closesEverything(text, i + 1, stack)) return fail('a string is missing its closing quote');
            return endOfInput('an unterminated string');
          }
          if (typeof read === 'number') {
            i = read;
            return fail('invalid escape sequence in a string');
          }
          i = read.end;
          emit(read.value);
          continue;
        }
        if (c === '-' || (c >= '0' && c <= '9')) {
          const literal = matchLiteral(text, i);
          if (literal === 'partial') return endOfInput('an unfinished value');
          if (literal !== undefined) {
            i += literal[0].length;
            if (literal[2] !== undefined) fixes.push(literal[2]);
            emit(literal[1]);
            continue;
          }
          NUMBER_CHARS.lastIndex = i;
          NUMBER_CHARS.test(text);
          const end = NUMBER_CHARS.lastIndex;
          if (end >= n) return endOfInput('an unfinished number');
          NUMBER.lastIndex = i;
          if (!NUMBER.test(text) || NUMBER.lastIndex !== end) return fail('invalid number');
          emit(Number(text.slice(i, end)));
          i = end;
          continue;
        }
        const literal = matchLiteral(text, i);
        if (literal === 'partial') return endOfInput('an unfinished value');
        if (literal === undefined) return fail(`expected a JSON value, found ${describeChar(c)}`);
        i += literal[0].length;
        if (literal[2] !== undefined) fixes.push(literal[2]);
        emit(literal[1]);
        continue;
      }

      case Expect.Key: {
        if (c !== '"') return fail(`expected a double-quoted property name, found ${describeChar(c)}`);
        const read = readString(text, i, fixes);
        if (read === undefined) {
          // `"limit: 5}` is a name missing its closing quote (a colon and a value follow), not a cut-off name.
          if (closesEverything(text, i + 1, stack) || /:\s*\S/.test(text.slice(i + 1, i + 1 + 256)))
            return fail('a property name is missing its closing quote');
          return endOfInput('an unterminated property name');
        }
        if (typeof read === 'number') {
          i = read;
          return fail('invalid escape sequence in a property name');
        }
        i = read.end;
        (top as Frame & { kind: 'object' }).key = read.value;
        expect = Expect.Colon;
        continue;
      }

      case Expect.Colon:
        if (c !== ':') return fail(`expected ":" after the property name, found ${describeChar(c)}`);
        i++;
        expect = Expect.Value;
        continue;

      case Expect.CommaOrEnd:
        if (c === ',') {
          i++;
          expect = (top as Frame).kind === 'object' ? Expect.Key : Expect.Value;
          continue;
        }
        if (c === '}' || c === ']') {
          close(c);
          continue;
        }
        if (c === ':' && (top as Frame).kind === 'array') {
          // `["q": 1]`: a key inside an array. Guessing the intended structure is risky: refuse, do not repair.
          // Unless a closer of the wrong kind was read as the innermost one before: then syntax repair may read it.
          const wrongCloser = fixes.some((fix) => fix.includes('closed an'));
          return { ok: false, position: i, message: 'found ":" inside an array (a key where a value was expected)', refuse: !wrongCloser };
        }
        return fail(`expected "," or "${(top as Frame).kind === 'object' ? '}' : ']'}", found ${describeChar(c)}`);

      case Expect.Done: {
        // A stray "}" that closed the root object early: `{"a":1}, "b":2}`.
        if (c === ',' && isPlainObject(root) && fixes.every((fix) => !fix.startsWith('stray'))) {
          fixes.push(`stray "}" before position ${i} skipped`);
          stack.push({ kind: 'object', value: root as Record<string, unknown>, key: undefined });
          root = undefined;
          expect = Expect.CommaOrEnd;
          continue;
        }
        return fail(`unexpected ${describeChar(c)} after the end of the JSON value`);
      }
    }
  }
}

/** Reads the string starting at `start` (a `"`): its value and end, `undefined` when the input ends inside it, or the position of a bad escape. */
function readString(text: string, start: number, fixes: string[]): { value: string; end: number } | number | undefined {
  let i = start + 1;
  let chunkStart = i;
  let value = '';
  let rawControl = false;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      value += text.slice(chunkStart, i);
      if (rawControl) fixes.push(`raw control character kept in the string at position ${start}`);
      return { value, end: i + 1 };
    }
    if (c === 0x5c) {
      value += text.slice(chunkStart, i);
      if (i + 1 >= n) return undefined;
      const e = text[i + 1] as string;
      if (e === 'u') {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]*$/.test(hex)) return i;
        if (hex.length < 4) return undefined;
        value += String.fromCharCode(Number.parseInt(hex, 16));
        i += 6;
      } else {
        const escaped = ESCAPES[e];
        if (escaped === undefined) return i;
        value += escaped;
        i += 2;
      }
      chunkStart = i;
      continue;
    }
    if (c < 0x20) rawControl = true;
    i++;
  }
  return undefined;
}

/** The literal at `start`, `'partial'` when the input ends inside one, or `undefined`. */
function matchLiteral(text: string, start: number): (typeof LITERALS)[number] | 'partial' | undefined {
  for (const literal of LITERALS) {
    const word = literal[0];
    if (text.startsWith(word, start)) {
      const after = text.charCodeAt(start + word.length);
      if (Number.isNaN(after) || !isIdentifierChar(after)) return literal;
    } else if (start + word.length > text.length && word.startsWith(text.slice(start))) {
      return 'partial';
    }
  }
  return undefined;
}

/**
 * An unterminated string whose text ends with exactly the brackets that close everything open (`{"a":"b}`) lost
 * its closing quote; it was not cut off. Syntax repair reads it better than closing would. Unless the string's own
 * text opens brackets that those closers close (`"function f() {…}`, JSON or code inside a long string cut off right
 * after one of its `}`): then the brackets are content, and the string was cut off.
 */
function closesEverything(text: string, contentStart: number, stack: readonly Frame[]): boolean {
  let end = text.length;
  while (end > contentStart && isWhitespace(text.charCodeAt(end - 1))) end--;
  // The closers, innermost first, possibly with whitespace between them (pretty-printed JSON).
  let at = end;
  for (let index = 0; index < stack.length; index++) {
    while (at > contentStart && isWhitespace(text.charCodeAt(at - 1))) at--;
    const wanted = (stack[index] as Frame).kind === 'object' ? '}' : ']';
    if (at - 1 < contentStart || text[at - 1] !== wanted) return false;
    at--;
  }
  if (stack.length === 0) return false;
  return !opensBrackets(text, contentStart, at);
}

/** Whether `text[start, end)` leaves a `{` or `[` open (brackets counted, nothing else). */
function opensBrackets(text: string, start: number, end: number): boolean {
  let depth = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && depth > 0) depth--;
  }
  return depth > 0;
}

function setProperty(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isIdentifierChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x24;
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeChar(c: string): string {
  return JSON.stringify(c);
}

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
