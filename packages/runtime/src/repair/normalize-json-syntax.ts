import { JsonLookahead } from './json-lookahead.js';
import { FixCounter, type NormalizeFixKind } from './normalize-fixes.js';
import { closerOf, readDoubleQuoted, type Container, type QuoteContext } from './normalize-quoted-string.js';

/** The outcome of `normalizeJsonSyntax`: the rewritten text and one line per kind of fix made (empty when none). */
export interface NormalizedJson {
  text: string;
  fixes: string[];
}

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

const BARE_VALUE = /[\w$./@~+*%-]+/y;
const NUMBER_WITH_SEPARATORS = /[-+]?\d+(?:_\d+)*(?:\.\d+(?:_\d+)*)?(?:[eE][-+]?\d+)?(?![\w.])/y;

/**
 * A linear, string-aware pre-pass that rewrites what models write instead of JSON into JSON, so the closing rung and
 * `jsonrepair` can read it. Outside strings: Python and upper-case literals (`True`, `FALSE`, `Null`, `None`) and
 * `NaN` / `Infinity` in value position become `true` / `false` / `null`; digit separators are removed (`82_461_110`);
 * a tuple `(1, 2)` / `()` in value position becomes an array (`(x)` without a comma is just `x`); `//`, `/* … *\/`
 * and `#` comments are removed; a closing bracket of the wrong kind closes the container the text after it needs
 * (the innermost one, or an outer one when the innermost lost its own closer), and closers left over after the root
 * value are dropped; doubled and trailing commas are removed, missing commas and colons put back; unquoted values
 * with `/` or `@` (`Europe/Paris`, `1/3`) are quoted; literal `\n` / `\r` / `\t` escapes between tokens become
 * spaces. Strings are read by `readDoubleQuoted` (doubled quotes, property names missing a quote, unescaped quotes
 * inside values, a value that lost its closing quote before the final closers); single-quoted strings are copied as
 * they are. Text inside strings is otherwise kept.
 *
 * Only ever given text that `JSON.parse` refused. Linear in the length of `text` (every look ahead is bounded, see
 * `JsonLookahead`). Never throws.
 */
export function normalizeJsonSyntax(text: string): NormalizedJson {
  return new Normalizer(text).run();
}

class Normalizer implements QuoteContext {
  readonly text: string;
  /** The output, in pieces (joined once at the end). */
  readonly out: string[] = [];
  readonly stack: Container[] = [];
  /** The last significant character emitted outside strings (`''` at the start, `v` after a value). */
  prev = '';
  private readonly fixCounter = new FixCounter();
  readonly look: JsonLookahead;
  /** The open tuples (innermost last): where their `[` is in `out`, and how many commas they have had. */
  private readonly tuples: Array<{ outIndex: number; commas: number }> = [];

  constructor(text: string) {
    this.text = text;
    this.look = new JsonLookahead(text);
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
        i = readDoubleQuoted(this, i);
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

  count(kind: NormalizeFixKind): void {
    this.fixCounter.count(kind);
  }

  private fixes(): string[] {
    return this.fixCounter.lines();
  }

  top(): Container | undefined {
    return this.stack[this.stack.length - 1];
  }

  /** Where a value is expected: the start, after `:`, or after `[` / `(` / `,` inside an array or tuple. */
  private valuePosition(): boolean {
    const top = this.top();
    if (this.prev === '' || this.prev === ':') return true;
    if (this.prev === '[' || this.prev === '(') return true;
    return this.prev === ',' && (top === '[' || top === '(');
  }

  keyPosition(): boolean {
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
    const comma = this.look.nextSignificant(i + 1);
    if (text[comma] !== ',') return 1;
    const after = this.look.nextSignificant(comma + 1);
    const wantObject = this.look.startsKey(after);
    const fits = (container: Container | undefined): boolean => (wantObject ? container === '{' : container === '[' || container === '(');
    if (fits(stack[stack.length - 2])) return 1;
    return fits(stack[match - 1]) ? stack.length - match : 1;
  }

  private comma(i: number): number {
    const tuple = this.top() === '(' ? this.tuples[this.tuples.length - 1] : undefined;
    if (tuple !== undefined) tuple.commas++;
    const next = this.look.nextSignificant(i + 1);
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
      if (this.text[end] === '"' && this.text[this.look.nextSignificant(end + 1)] === ':') {
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
    const followedByColon = this.text[this.look.nextSignificant(end)] === ':';
    if (replacement !== undefined && this.valuePosition() && !followedByColon) {
      this.count(word === 'NaN' || word === 'Infinity' ? 'nonFinite' : 'literals');
      this.out.push(replacement);
      this.prev = 'v';
      return end;
    }
    if (this.valuePosition() && this.text[end] === '"' && /[,}\]]/.test(this.text[this.look.nextSignificant(end + 1)] ?? ',')) {
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
  separate(): void {
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
    if (/[\w]/.test(text[i - 1] ?? '')) {
      // An apostrophe inside an unquoted word (`don't`): punctuation, left for jsonrepair.
      this.emit("'");
      return i + 1;
    }
    this.separate();
    const isKey = this.keyPosition();
    let start = i;
    if (text[i + 1] === "'" && i + 2 < text.length && !/[\s,:}\])']/.test(text[i + 2] as string)) {
      this.count('doubledQuotes');
      start = i + 1;
    }
    const token = isKey || this.valuePosition();
    let j = start + 1;
    while (j < text.length && text[j] !== "'") j += text[j] === '\\' ? 2 : 1;
    let end = Math.min(j + 1, text.length);
    // A single-quoted key or value (a Python dict) becomes a JSON string, so the closing rung can read it too (and
    // jsonrepair, which stumbles on `'{x'`, need not). Anything else (an apostrophe in an unquoted word) is copied.
    if (token) {
      this.count('singleQuotes');
      const body = text.slice(start + 1, Math.min(j, text.length)).replace(/\\'|"/g, (found) => (found === '"' ? '\\"' : "'"));
      this.out.push(j < text.length ? `"${body}"` : `"${body}`);
    } else {
      this.out.push(text.slice(start, end));
    }
    if (text[end] === "'" && /^[\s]*[,:}\]]/.test(text.slice(end + 1, end + 2 + 16))) {
      this.count('doubledQuotes');
      end++;
    }
    this.prev = isKey ? 'k' : 'v';
    return end;
  }
}
