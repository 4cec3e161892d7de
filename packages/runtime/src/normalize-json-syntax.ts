/** The outcome of `normalizeJsonSyntax`: the rewritten text and one line per kind of fix made (empty when none). */
export interface NormalizedJson {
  text: string;
  fixes: string[];
}

type Container = '{' | '[' | '(' | 'call';

/** Longest property name looked at when deciding whether a quote ends a string (keeps the scan linear). */
const MAX_KEY_LOOKAHEAD = 256;

/** How far past a token the pass looks for the next one (whitespace and comments skipped) before giving up. */
const MAX_LOOKAHEAD = 4096;

/** Unquoted words that are JSON literals in other spellings (Python, upper case), and `NaN` / `Infinity`. */
const LITERAL_WORDS: Readonly<Record<string, string>> = {
  True: 'true',
  TRUE: 'true',
  False: 'false',
  FALSE: 'false',
  Null: 'null',
  NULL: 'null',
  None: 'null',
  NONE: 'null',
  NaN: 'null',
  Infinity: 'null',
};

const WORD = /[A-Za-z_$][\w$]*/y;
const KEY_WORD = /[\w$]+/y;

function closerOf(container: Container): string {
  return container === '{' ? '}' : container === '[' ? ']' : ')';
}
const BARE_VALUE = /[\w$./@~+*%-]+/y;
const NUMBER_WITH_SEPARATORS = /[-+]?\d+(?:_\d+)*(?:\.\d+(?:_\d+)*)?(?:[eE][-+]?\d+)?(?![\w.])/y;

const FIX_LABELS = {
  literals: (n: number) => `${n} Python or upper-case literal${n === 1 ? '' : 's'} (True, NULL, None, …) became JSON`,
  nonFinite: (n: number) => `${n} NaN/Infinity value${n === 1 ? '' : 's'} became null`,
  separators: (n: number) => `${n} digit separator${n === 1 ? '' : 's'} removed from number${n === 1 ? '' : 's'} (1_000 → 1000)`,
  tuples: (n: number) => `${n} tuple${n === 1 ? '' : 's'} ( … ) read as array${n === 1 ? '' : 's'}`,
  comments: (n: number) => `${n} comment${n === 1 ? '' : 's'} removed`,
  brackets: (n: number) => `${n} closing bracket${n === 1 ? '' : 's'} of the wrong kind or left over fixed`,
  commas: (n: number) => `${n} doubled or trailing comma${n === 1 ? '' : 's'} removed`,
  separators_missing: (n: number) => `${n} missing comma${n === 1 ? '' : 's'} or colon${n === 1 ? '' : 's'} put back`,
  doubledQuotes: (n: number) => `${n} doubled quote${n === 1 ? '' : 's'} undone`,
  keyQuotes: (n: number) => `${n} property name${n === 1 ? '' : 's'} missing a quote closed`,
  stringQuotes: (n: number) => `${n} string value${n === 1 ? '' : 's'} missing a closing quote closed before the next property`,
  innerQuotes: (n: number) => `${n} unescaped quote${n === 1 ? '' : 's'} inside string values escaped`,
  bareValues: (n: number) => `${n} unquoted value${n === 1 ? '' : 's'} with / or @ quoted`,
  escapes: (n: number) => `${n} literal \\n/\\r/\\t between tokens became whitespace`,
  controls: (n: number) => `${n} raw control character${n === 1 ? '' : 's'} in strings escaped`,
} as const;

type FixKind = keyof typeof FIX_LABELS;

/**
 * A linear, string-aware pre-pass that rewrites what models write instead of JSON into JSON, so the closing rung and
 * `jsonrepair` can read it. Outside strings: Python and upper-case literals (`True`, `FALSE`, `Null`, `None`) and
 * `NaN` / `Infinity` in value position become `true` / `false` / `null`; digit separators are removed (`82_461_110`);
 * a tuple `(1, 2)` / `()` in value position becomes an array; `//`, `/* … *\/` and `#` comments are removed; a closing
 * bracket of the wrong kind is replaced by the one the open container needs, and closers left over after the root
 * value are dropped; doubled and trailing commas are removed; literal `\n` / `\r` / `\t` escapes between tokens
 * become spaces. In double-quoted strings: a doubled opening or closing quote is undone (`""name"`, `"Ana""`); a
 * property name missing its closing quote (`{"name: "Ana"}`) is closed at its colon; a quote that cannot end the
 * string (it is not followed by `,` and a next member, a closing bracket, a `:` after a key, or the end) is escaped
 * (`"print("hi")"`); raw control characters other than tab and line breaks are escaped. Text inside strings is
 * otherwise kept; single-quoted strings are copied as they are.
 *
 * Only ever given text that `JSON.parse` refused. Linear in the length of `text` (each quote looks ahead at most
 * `MAX_KEY_LOOKAHEAD` characters). Never throws.
 */
export function normalizeJsonSyntax(text: string): NormalizedJson {
  return new Normalizer(text).run();
}

class Normalizer {
  private readonly text: string;
  /** The output, in pieces (joined once at the end). */
  private readonly out: string[] = [];
  private readonly stack: Container[] = [];
  /** The last significant character emitted outside strings (`''` at the start, `v` after a value). */
  private prev = '';
  private readonly counts = new Map<FixKind, number>();
  private readonly searches = new Map<string, { from: number; to: number; found: number }>();
  /** The open tuples (innermost last): where their `[` is in `out`, and how many commas they have had. */
  private readonly tuples: Array<{ outIndex: number; commas: number }> = [];

  constructor(text: string) {
    this.text = text;
  }

  run(): NormalizedJson {
    const text = this.text;
    const n = text.length;
    let i = 0;
    while (i < n) {
      const c = text[i] as string;
      const code = text.charCodeAt(i);
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
        this.out.push(c);
        i++;
      } else if (c === '"') {
        i = this.doubleQuoted(i);
      } else if (c === "'") {
        i = this.singleQuoted(i);
      } else if (c === '/' && (text[i + 1] === '*' || (text[i + 1] === '/' && text[i - 1] !== ':'))) {
        // (`//` right after a colon is a URL, `{url:https://x}`, not a comment.)
        i = this.comment(i);
      } else if (c === '#' && this.prev !== ':') {
        i = this.comment(i);
      } else if (c === '\\') {
        const next = text[i + 1];
        // `{\"a\": 1}` is escaped JSON: leave it all to jsonrepair.
        if (next === '"') return { text, fixes: [] };
        if (next === 'n' || next === 'r' || next === 't') {
          this.out.push(' ');
          this.count('escapes');
          i += 2;
        } else {
          this.out.push(c);
          i++;
        }
      } else if (c === '{' || c === '[') {
        this.separate();
        this.stack.push(c);
        this.emit(c);
        i++;
      } else if (c === '(') {
        if (this.valuePosition()) {
          this.stack.push('(');
          this.tuples.push({ outIndex: this.out.length, commas: 0 });
          this.emit('[');
          this.count('tuples');
        } else {
          this.stack.push('call');
          this.emit('(');
        }
        i++;
      } else if (c === '}' || c === ']' || c === ')') {
        this.closer(c, i);
        i++;
      } else if (c === ',') {
        i = this.comma(i);
      } else if (c === ':') {
        this.emit(':');
        i++;
      } else if ((c >= '0' && c <= '9') || c === '-' || c === '+') {
        i = this.number(i);
      } else if (/[A-Za-z_$]/.test(c)) {
        i = this.word(i);
      } else {
        this.emit(c);
        i++;
      }
    }
    return { text: this.out.join(''), fixes: this.fixes() };
  }

  private emit(token: string): void {
    this.out.push(token);
    this.prev = token === '}' || token === ']' || token === ')' ? 'v' : token;
  }

  private count(kind: FixKind): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }

  private fixes(): string[] {
    return [...this.counts].map(([kind, count]) => FIX_LABELS[kind](count));
  }

  private top(): Container | undefined {
    return this.stack[this.stack.length - 1];
  }

  /** Where a value is expected: the start, after `:`, or after `[` / `(` / `,` inside an array or tuple. */
  private valuePosition(): boolean {
    const top = this.top();
    if (this.prev === '' || this.prev === ':') return true;
    if (this.prev === '[' || this.prev === '(') return true;
    return this.prev === ',' && (top === '[' || top === '(');
  }

  private keyPosition(): boolean {
    return this.top() === '{' && (this.prev === '{' || this.prev === ',');
  }

  private closer(c: string, i: number): void {
    const top = this.top();
    if (top === undefined) {
      // A closer left over after the root value (`{"a": 1}}`); before any value it is left for the later rungs.
      if (this.prev === 'v') this.count('brackets');
      else this.emit(c);
      return;
    }
    if (c === closerOf(top) || (top === '(' && c === ']')) {
      this.popContainer();
      return;
    }
    this.count('brackets');
    for (let pops = this.wrongCloserPops(c, i); pops > 0; pops--) this.popContainer();
  }

  /** Closes the innermost container: its own closer, or for a one-element tuple without a comma, `(x)`, nothing. */
  private popContainer(): void {
    const top = this.stack.pop() as Container;
    const tuple = top === '(' ? this.tuples.pop() : undefined;
    if (tuple !== undefined && tuple.commas === 0 && this.prev !== '[') {
      // `(1)` and `("x")` are a parenthesised value in Python, not a tuple.
      this.out[tuple.outIndex] = '';
      this.prev = 'v';
      return;
    }
    this.emit(top === 'call' ? ')' : top === '{' ? '}' : ']');
  }

  /**
   * A closing bracket of the wrong kind closes the innermost container, unless the text after it needs an outer
   * one: `[{"k": 1], "next": 2}` (a dropped `}`: the `]` closes the object and the array, since a property follows)
   * against `{"a": [1, 2}, "b": 3}` (the `}` stands for the array's `]`).
   */
  private wrongCloserPops(c: string, i: number): number {
    const stack = this.stack;
    let match = stack.length - 2;
    while (match >= 0 && closerOf(stack[match] as Container) !== c && !(stack[match] === '(' && c === ']')) match--;
    if (match < 0) return 1;
    const text = this.text;
    const comma = this.nextSignificant(i + 1);
    if (text[comma] !== ',') return 1;
    const after = this.nextSignificant(comma + 1);
    const wantObject = this.startsKey(after);
    const fits = (container: Container | undefined): boolean => (wantObject ? container === '{' : container === '[' || container === '(');
    if (fits(stack[stack.length - 2])) return 1;
    return fits(stack[match - 1]) ? stack.length - match : 1;
  }

  private comma(i: number): number {
    const tuple = this.top() === '(' ? this.tuples[this.tuples.length - 1] : undefined;
    if (tuple !== undefined) tuple.commas++;
    const next = this.nextSignificant(i + 1);
    const after = next < this.text.length ? this.text[next] : '';
    const dangling = this.prev !== 'k' && (after === '}' || after === ']' || after === ')');
    if (this.prev === ',' || this.prev === '{' || this.prev === '[' || this.prev === '(' || dangling) {
      this.count('commas');
      return i + 1;
    }
    this.emit(',');
    return i + 1;
  }

  private comment(i: number): number {
    const text = this.text;
    this.count('comments');
    if (text[i] === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      return end < 0 ? text.length : end + 2;
    }
    const end = text.indexOf('\n', i);
    return end < 0 ? text.length : end;
  }

  private number(i: number): number {
    const text = this.text;
    if (this.valuePosition()) {
      BARE_VALUE.lastIndex = i;
      const bare = BARE_VALUE.exec(text)?.[0] ?? '';
      if (/^[-+]?\d[\w.]*[/@]/.test(bare) && !/\/[/*]/.test(bare)) {
        // `1/3`, `2024/01/02`: an unquoted value with punctuation jsonrepair does not read.
        this.separate();
        this.count('bareValues');
        this.out.push(JSON.stringify(bare));
        this.prev = 'v';
        return i + bare.length;
      }
    }
    if (!/\d/.test(text[i + 1] ?? '') && !/\d/.test(text[i] as string) && !text.startsWith('Infinity', i + 1)) {
      // A lone sign (`"a" + "b"` concatenation): punctuation, not a value.
      this.emit(text[i] as string);
      return i + 1;
    }
    this.separate();
    if (this.valuePosition()) {
      for (const word of ['-Infinity', '+Infinity']) {
        if (text.startsWith(word, i) && !/[\w$]/.test(text[i + word.length] ?? '')) {
          this.count('nonFinite');
          this.emit('null');
          this.prev = 'v';
          return i + word.length;
        }
      }
      NUMBER_WITH_SEPARATORS.lastIndex = i;
      const match = NUMBER_WITH_SEPARATORS.exec(text);
      if (match !== null && match[0].includes('_')) {
        this.count('separators');
        this.out.push(match[0].replaceAll('_', ''));
        this.prev = 'v';
        return i + match[0].length;
      }
    }
    let end = i + 1;
    while (end < text.length && /[\w.+-]/.test(text[end] as string)) end++;
    this.out.push(text.slice(i, end));
    this.prev = 'v';
    return end;
  }

  private word(i: number): number {
    WORD.lastIndex = i;
    const word = (WORD.exec(this.text) as RegExpExecArray)[0];
    const end = i + word.length;
    this.separate();
    if (this.keyPosition()) {
      // `run_in_background": false`: a property name missing its opening quote.
      if (this.text[end] === '"' && this.text[this.nextSignificant(end + 1)] === ':') {
        this.count('keyQuotes');
        this.out.push(`"${word}"`);
        this.prev = 'k';
        return end + 1;
      }
      this.out.push(word);
      this.prev = 'k';
      return end;
    }
    const replacement = LITERAL_WORDS[word];
    const followedByColon = this.text[this.nextSignificant(end)] === ':';
    if (replacement !== undefined && this.valuePosition() && !followedByColon) {
      this.count(word === 'NaN' || word === 'Infinity' ? 'nonFinite' : 'literals');
      this.out.push(replacement);
      this.prev = 'v';
      return end;
    }
    if (this.valuePosition() && this.text[end] === '"' && /[,}\]]/.test(this.text[this.nextSignificant(end + 1)] ?? ',')) {
      // `{"a": foo", "b": 1}`: a value missing its opening quote.
      this.count('stringQuotes');
      this.out.push(`"${word}"`);
      this.prev = 'v';
      return end + 1;
    }
    BARE_VALUE.lastIndex = i;
    const bare = this.valuePosition() && /[/@~]/.test(this.text[end] ?? '') ? (BARE_VALUE.exec(this.text) as RegExpExecArray)[0] : '';
    if (bare !== '' && !/\/[/*]/.test(bare)) {
      // `Europe/Paris`, `src/a.ts`, `a@b.c`: an unquoted value with punctuation jsonrepair does not read.
      this.count('bareValues');
      this.out.push(JSON.stringify(bare));
      this.prev = 'v';
      return i + bare.length;
    }
    this.out.push(word);
    this.prev = 'v';
    return end;
  }

  /**
   * Before a token that starts a value or a property name: a missing `,` after a complete member or element is
   * put back (`{"a": 1 "b": 2}`), and a missing `:` after a property name (`{"a" 1}`).
   */
  private separate(): void {
    const top = this.top();
    if (top !== '{' && top !== '[' && top !== '(') return;
    if (this.prev === 'v') {
      this.count('separators_missing');
      this.out.push(',');
      this.prev = ',';
    } else if (this.prev === 'k') {
      this.count('separators_missing');
      this.out.push(':');
      this.prev = ':';
    }
  }

  private singleQuoted(i: number): number {
    const text = this.text;
    this.separate();
    const isKey = this.keyPosition();
    let start = i;
    if (text[i + 1] === "'" && i + 2 < text.length && !/[\s,:}\])']/.test(text[i + 2] as string)) {
      this.count('doubledQuotes');
      start = i + 1;
    }
    let j = start + 1;
    while (j < text.length && text[j] !== "'") j += text[j] === '\\' ? 2 : 1;
    let end = Math.min(j + 1, text.length);
    this.out.push(text.slice(start, end));
    if (text[end] === "'" && /^[\s]*[,:}\]]/.test(text.slice(end + 1, end + 2 + 16))) {
      this.count('doubledQuotes');
      end++;
    }
    this.prev = isKey ? 'k' : 'v';
    return end;
  }

  /** A double-quoted string starting at `i`: copied, with the quote repairs described on `normalizeJsonSyntax`. */
  private doubleQuoted(i: number): number {
    const text = this.text;
    const n = text.length;
    this.separate();
    const isKey = this.keyPosition();
    let start = i;
    // `""name"`: a doubled opening quote (an empty string is followed by whitespace or punctuation instead).
    if (text[i + 1] === '"' && i + 2 < n && !/[\s,:}\])"]/.test(text[i + 2] as string)) {
      this.count('doubledQuotes');
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
        this.count('controls');
        j++;
        continue;
      }
      if (code !== 0x22) {
        j++;
        continue;
      }
      const next = this.nextSignificant(j + 1);
      if (isKey) {
        const raw = content.join('') + text.slice(chunk, j);
        if (next === j + 1 && text[next] === '"' && text[this.nextSignificant(j + 2)] === ':') {
          // `""city"":` (CSV-style doubling).
          this.count('doubledQuotes');
          this.out.push(`"${raw}"`);
          this.prev = 'k';
          return j + 2;
        }
        if (next < n && text[next] !== ':') {
          const colon = raw.indexOf(':');
          if (colon >= 0) return this.keyClosedAtColon(raw, colon, start);
        }
        this.out.push(`"${raw}"`);
        this.prev = 'k';
        return j + 1;
      }
      if (text[next] === ':' && inner === 1 && this.top() === '{') {
        // `"b,"c":"d"`: the quote just read closes a property name, so the string ended at the comma before it.
        let comma = lastInner - 1;
        while (comma > start && /\s/.test(text[comma] as string)) comma--;
        if (text[comma] === ',') {
          this.count('stringQuotes');
          this.out.push(`"${text.slice(start + 1, comma).trimEnd()}",`);
          this.prev = ',';
          return lastInner;
        }
      }
      const verdict = this.endsString(j, next, inner);
      if (verdict === 'content') {
        lastInner = j;
        content.push(text.slice(chunk, j), '\\"');
        chunk = j + 1;
        inner++;
        this.count('innerQuotes');
        j++;
        continue;
      }
      this.out.push(`"${content.join('')}${text.slice(chunk, j)}"`);
      this.prev = 'v';
      if (verdict === 'doubled') {
        this.count('doubledQuotes');
        return j + 2;
      }
      return j + 1;
    }
    // The input ends inside the string: keep it open for the closing rung (it was cut off) ...
    const raw = content.join('') + text.slice(chunk, Math.min(j, n));
    if (isKey) {
      const colon = raw.indexOf(':');
      if (colon >= 0) return this.keyClosedAtColon(raw, colon, start);
    }
    // ... unless it ends with exactly the closers of everything open, which its own text does not open: then it
    // lost its closing quote (`{"a": "b, c}`).
    const closersAt = this.closersAtEnd(Math.max(chunk, start + 1));
    if (closersAt >= 0) {
      this.count('stringQuotes');
      this.out.push(`"${content.join('')}${text.slice(chunk, closersAt).trimEnd()}"`);
      this.prev = 'v';
      return closersAt;
    }
    this.out.push(`"${raw}`);
    this.prev = 'v';
    return n;
  }

  /** Where the trailing closers of every open container start, when `text[from, that)` leaves no bracket open; else -1. */
  private closersAtEnd(from: number): number {
    const text = this.text;
    let end = text.length;
    while (end > from && /\s/.test(text[end - 1] as string)) end--;
    // Read backwards from the end: the root's closer last, the innermost container's first.
    let at = end;
    for (const container of this.stack) {
      const c = text[at - 1];
      if (at - 1 < from || !(c === closerOf(container) || (container === '(' && c === ']'))) return -1;
      at--;
    }
    if (this.stack.length === 0) return -1;
    let depth = 0;
    for (let k = from; k < at; k++) {
      const c = text[k];
      if (c === '{' || c === '[') depth++;
      else if ((c === '}' || c === ']') && depth > 0) depth--;
    }
    return depth > 0 ? -1 : at;
  }

  /** `"name: "Ana"` → `"name":`, then the scan goes on right after the colon (inside what was read as the key). */
  private keyClosedAtColon(raw: string, colon: number, start: number): number {
    this.count('keyQuotes');
    this.out.push(`"${raw.slice(0, colon).trimEnd()}":`);
    this.prev = ':';
    // `raw` may hold rewritten escapes only after the first inner quote; keys are short, so map back by searching.
    const resume = this.text.indexOf(':', start + 1);
    return resume + 1;
  }

  /**
   * Whether the quote at `j` (in a value string) ends it, is content, or is a doubled closing quote. `inner` is the
   * number of quotes already taken as content: when it is odd, a quote right before the closing one pairs with them.
   */
  private endsString(j: number, next: number, inner: number): 'end' | 'content' | 'doubled' {
    const text = this.text;
    if (next >= text.length) return 'end';
    const d = text[next] as string;
    const top = this.top();
    if (d === '}' || d === ']' || d === '+') return 'end';
    // A property on the next line, its comma missing: `"John"\n  lastName: "Smith"`.
    if (top === '{' && /[\r\n]/.test(text.slice(j + 1, next)) && this.startsKey(next)) return 'end';
    if (d === ')') return top === '(' || top === 'call' ? 'end' : 'content';
    if (d === ',') {
      const after = this.nextSignificant(next + 1);
      if (after >= text.length) return 'end';
      const e = text[after] as string;
      // A trailing comma: `["a", "b",]`, `("src",)`.
      if (e === '}' || e === ']' || (e === ')' && (top === '(' || top === 'call'))) return 'end';
      if (top === '{') return e === '}' || e === "'" || this.startsKey(after) || this.startsMember(after) ? 'end' : 'content';
      if (top === '[' || top === '(') return /["'{[\-\d]|[tfnTFN]/.test(e) ? 'end' : 'content';
      return 'end';
    }
    if (d === '"') {
      if (next === j + 1 && inner % 2 === 1) return 'content';
      if (next === j + 1) {
        const afterDoubled = this.nextSignificant(j + 2);
        if (afterDoubled >= text.length || /[,:}\]]/.test(text[afterDoubled] as string)) return 'doubled';
      }
      if (top === '{') return this.startsKey(next) ? 'end' : 'content';
      if (top === '[' || top === '(') return this.startsElement(next) ? 'end' : 'content';
      return 'content';
    }
    return 'content';
  }

  /** At `p`: a property name followed by `:` (`"key":` or `key:`), read within `MAX_KEY_LOOKAHEAD` characters. */
  private startsKey(p: number): boolean {
    const text = this.text;
    if (text[p] === '"') {
      const limit = Math.min(text.length, p + 1 + MAX_KEY_LOOKAHEAD);
      for (let k = p + 1; k < limit; k++) {
        const c = text[k];
        if (c === '\\') k++;
        else if (c === '"') return text[this.nextSignificant(k + 1)] === ':';
        // `"limit: 5`: a property name missing its closing quote.
        else if (c === ':') return k > p + 1;
        else if (c === '\n') return false;
      }
      return false;
    }
    KEY_WORD.lastIndex = p;
    const word = KEY_WORD.exec(text);
    if (word === null) return false;
    const after = p + word[0].length;
    // `limit": 10`: a property name missing its opening quote.
    return text[this.nextSignificant(text[after] === '"' ? after + 1 : after)] === ':';
  }

  /** At `p`: a quoted name followed by `,` or `}` (a member missing its value: later rungs judge it). */
  private startsMember(p: number): boolean {
    if (this.text[p] !== '"') return false;
    const close = this.closingQuote(p);
    if (close < 0) return false;
    const after = this.nextSignificant(close + 1);
    return after >= this.text.length || /[,}]/.test(this.text[after] as string);
  }

  /** At `p`: a string element followed by `,` or `]` (the quote before it ended the previous element). */
  private startsElement(p: number): boolean {
    const close = this.closingQuote(p);
    if (close < 0) return false;
    const after = this.nextSignificant(close + 1);
    return after >= this.text.length || /[,\]"]/.test(this.text[after] as string);
  }

  private closingQuote(p: number): number {
    const text = this.text;
    const limit = Math.min(text.length, p + 1 + MAX_KEY_LOOKAHEAD);
    for (let k = p + 1; k < limit; k++) {
      const c = text.charCodeAt(k);
      if (c === 0x5c) k++;
      else if (c === 0x22) return k;
    }
    return -1;
  }

  /**
   * The first `needle` in `text[from, limit)`, or -1. Searches overlap (many quotes before one long comment), so the
   * last search per needle is remembered and only the part not yet searched is scanned: linear overall.
   */
  private findWithin(needle: '\n' | '*/', from: number, limit: number): number {
    const memo = this.searches.get(needle);
    if (memo !== undefined && from >= memo.from && from <= memo.to && (memo.found === -1 || memo.found >= from)) {
      if (memo.found >= from) return memo.found < limit ? memo.found : -1;
      if (limit <= memo.to) return -1;
      const found = this.text.slice(0, limit).indexOf(needle, Math.max(from, memo.to - needle.length + 1));
      this.searches.set(needle, { from, to: limit, found });
      return found;
    }
    const found = this.text.slice(0, limit).indexOf(needle, from);
    this.searches.set(needle, { from, to: limit, found });
    return found;
  }

  /**
   * The next position at or after `from` that is not whitespace, a comment or a literal `\n` / `\r` / `\t` escape
   * between tokens. Looks at most `MAX_LOOKAHEAD` characters ahead (then answers where it stopped, a whitespace).
   */
  private nextSignificant(from: number): number {
    const text = this.text;
    const limit = Math.min(text.length, from + MAX_LOOKAHEAD);
    let k = from;
    while (k < limit) {
      const c = text.charCodeAt(k);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) k++;
      else if (c === 0x5c && /[nrt]/.test(text[k + 1] ?? '')) k += 2;
      else if (c === 0x2f && (text[k + 1] === '/' || text[k + 1] === '*')) {
        const line = text[k + 1] === '/';
        const close = this.findWithin(line ? '\n' : '*/', k + 2, limit);
        if (close < 0) return limit;
        k = close + (line ? 0 : 2);
      } else return k;
    }
    return k;
  }
}
