/*
 * PostgreSQL cannot store every JavaScript string: `text` and `jsonb` refuse the NUL character (U+0000), and a lone
 * UTF-16 surrogate (half of a pair, U+D800–U+DFFF) is not Unicode at all — `jsonb` refuses its escape and node-postgres
 * silently turns it into U+FFFD in `text`. The control plane refuses both at its boundary (`parseInput`), in any string
 * and any object key of any input, so nothing reaches a query that would fail or change what was sent. Writers of
 * their own records (a worker's transcripts, answers, run states) replace them instead (`replaceUnstorableText`).
 */

/** A NUL, or a surrogate that is not half of a well-formed pair (with the `u` flag, a pair is one code point). */
const UNSTORABLE = /\u0000|[\uD800-\uDFFF]/u;
const UNSTORABLE_ALL = /\u0000|[\uD800-\uDFFF]/gu;

/** Where the first unstorable character of a value is, and what it is. */
export interface UnstorableText {
  /** The path of the string, or of the object key, that holds it: `result.items[3].name` (`$` for the value itself). */
  path: string;
  /** `the key "…"` when an object key holds it, else `the text`. */
  where: 'text' | 'key';
  /** The character, as `U+0000` or `U+D83D`. */
  character: string;
  /** What the message says about it. */
  description: string;
}

/**
 * The first NUL character or lone surrogate in `value` — in any string, any array item, any own enumerable key or
 * property of a plain object, however deep (walked without recursion; an object seen twice is walked once) — or
 * `undefined` when every string can be stored.
 */
export function findUnstorableText(value: unknown): UnstorableText | undefined {
  interface Entry {
    value: unknown;
    parent: Entry | undefined;
    /** The key or index under the parent. */
    step: string | number | undefined;
  }
  const seen = new Set<object>();
  const stack: Entry[] = [{ value, parent: undefined, step: undefined }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const current = entry.value;
    if (typeof current === 'string') {
      const found = UNSTORABLE.exec(current);
      if (found !== null) return describe(pathOf(entry), 'text', found[0]);
      continue;
    }
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) stack.push({ value: current[index], parent: entry, step: index });
      continue;
    }
    if (!isPlainObject(current)) continue;
    const keys = Object.keys(current);
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      const key = keys[index]!;
      const found = UNSTORABLE.exec(key);
      if (found !== null) return describe(pathOf({ value: undefined, parent: entry, step: key }), 'key', found[0]);
      stack.push({ value: (current as Record<string, unknown>)[key], parent: entry, step: key });
    }
  }
  return undefined;

  function pathOf(entry: Entry): string {
    const steps: Array<string | number> = [];
    for (let at: Entry | undefined = entry; at !== undefined && at.step !== undefined; at = at.parent) steps.push(at.step);
    return formatPath(steps.reverse());
  }
}

/**
 * `value` with every NUL character and lone surrogate in its strings and keys replaced by U+FFFD (the replacement
 * character): what a writer of its own records stores instead of failing. Returns `value` itself when nothing needed
 * replacing; otherwise copies only plain objects and arrays (other objects are kept as they are).
 */
export function replaceUnstorableText<T>(value: T): T {
  if (findUnstorableText(value) === undefined) return value;
  return replaceIn(value, new Map()) as T;
}

function replaceIn(value: unknown, copies: Map<object, unknown>): unknown {
  if (typeof value === 'string') return value.replace(UNSTORABLE_ALL, '\uFFFD');
  if (typeof value !== 'object' || value === null) return value;
  if (copies.has(value)) return copies.get(value);
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    copies.set(value, copy);
    for (const item of value) copy.push(replaceIn(item, copies));
    return copy;
  }
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  copies.set(value, copy);
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(copy, key.replace(UNSTORABLE_ALL, '\uFFFD'), { value: replaceIn(item, copies), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** `a.b[3]["odd key"]`: identifiers after a dot, indexes and other keys (as JSON strings, escapes and all) in brackets. */
export function formatPath(steps: ReadonlyArray<string | number>): string {
  if (steps.length === 0) return '$';
  let path = '';
  for (const step of steps) {
    if (typeof step === 'number') path += `[${step}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(step)) path += path === '' ? step : `.${step}`;
    else path += `[${JSON.stringify(step)}]`;
  }
  return path;
}

function describe(path: string, where: 'text' | 'key', character: string): UnstorableText {
  const code = `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const what =
    character === '\u0000'
      ? `a NUL character (${code})`
      : `a lone surrogate (${code}: half of a UTF-16 pair, not a Unicode character)`;
  return {
    path,
    where,
    character: code,
    description: `${where === 'key' ? 'this object key' : 'the text'} contains ${what}, which cannot be stored; remove it or replace it (e.g. with U+FFFD)`,
  };
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
