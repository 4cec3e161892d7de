/** Longest property name looked at when deciding whether a quote ends a string (keeps the scan linear). */
export const MAX_KEY_LOOKAHEAD = 256;

/** How far past a token the normalising pass looks for the next one (whitespace and comments skipped). */
export const MAX_LOOKAHEAD = 4096;

const KEY_WORD = /[\w$]+/y;
const LITERAL = /(?:true|false|null|True|False|None|TRUE|FALSE|NULL|Null|NONE|NaN|Infinity)(?![\w$])/y;

/**
 * Bounded looks ahead in JSON-like text for `normalizeJsonSyntax`: where the next token is (whitespace, comments and
 * literal `\n` escapes skipped), and whether a property name, a member or an array element starts at a position.
 * Every look reads at most `MAX_LOOKAHEAD` (or `MAX_KEY_LOOKAHEAD`) characters, and comment searches that overlap are
 * remembered, so a pass that looks ahead from every quote stays linear. Never throws.
 */
export class JsonLookahead {
  private readonly text: string;
  private readonly searches = new Map<string, { from: number; to: number; found: number }>();

  constructor(text: string) {
    this.text = text;
  }

  /** At `p`: a property name followed by `:` (`"key":` or `key:`), read within `MAX_KEY_LOOKAHEAD` characters. */
  startsKey(p: number): boolean {
    const text = this.text;
    if (text[p] === '"') {
      // `""name":` (a doubled opening quote) names a property as well.
      const open = text[p + 1] === '"' && /[^\s"]/.test(text[p + 2] ?? ' ') ? p + 1 : p;
      const limit = Math.min(text.length, open + 1 + MAX_KEY_LOOKAHEAD);
      for (let k = open + 1; k < limit; k++) {
        const c = text[k];
        if (c === '\\') k++;
        else if (c === '"') return text[this.nextSignificant(k + 1)] === ':';
        // `"limit: 5`: a property name missing its closing quote.
        else if (c === ':') return k > open + 1;
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

  /**
   * At `p`: what an array element can start with: a quote, a bracket or parenthesis, a number, or a literal word
   * (`true`, `None`, `NULL`, `NaN`, …) followed by a delimiter. Plain words are not taken (`["say "hi", then"]`).
   */
  startsValue(p: number): boolean {
    const text = this.text;
    if (/["'{[(\-+.\d]/.test(text[p] ?? '')) return true;
    LITERAL.lastIndex = p;
    return LITERAL.test(text);
  }

  /** At `p`: a quoted name followed by `,` or `}` (a member missing its value: later rungs judge it). */
  startsMember(p: number): boolean {
    if (this.text[p] !== '"') return false;
    const close = this.closingQuote(p);
    if (close < 0) return false;
    const after = this.nextSignificant(close + 1);
    return after >= this.text.length || /[,}]/.test(this.text[after] as string);
  }

  /** At `p`: a string element followed by `,` or `]` (the quote before it ended the previous element). */
  startsElement(p: number): boolean {
    const close = this.closingQuote(p);
    if (close < 0) return false;
    const after = this.nextSignificant(close + 1);
    return after >= this.text.length || /[,\]"]/.test(this.text[after] as string);
  }

  closingQuote(p: number): number {
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
  nextSignificant(from: number): number {
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
