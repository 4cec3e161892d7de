import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import type { BoundedRegExp, BoundedRegExpEngine } from './bounded-regexp.js';

// re2js (about 260 kB) is loaded with the first pattern compiled, not with the runtime, like Ajv: `require`d from
// this file's folder (the runtime's dist or src; a bundle that inlines the runtime and compiles patterns lists it as
// a dependency of its own).
const requireFromHere = createRequire(import.meta.url);
let re2: typeof RE2JS | undefined;
function loadRe2(): typeof RE2JS {
  re2 ??= (requireFromHere('re2js') as { RE2JS: typeof RE2JS }).RE2JS;
  return re2;
}

/** Longest pattern the linear engine takes (characters): its program, and so its time per character, stays small. */
export const MAX_LINEAR_PATTERN_CHARS = 1000;

// JavaScript's \s: these code points (ECMA-262 WhiteSpace and LineTerminator). RE2's \s is ASCII only.
const JS_SPACE: Array<[number, number]> = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const hex = (code: number): string => `\\x{${code.toString(16)}}`;
const rangeText = (ranges: ReadonlyArray<[number, number]>): string =>
  ranges.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)).join('');
const complement = (ranges: ReadonlyArray<[number, number]>): Array<[number, number]> => {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [from, to] of ranges) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
};
const SPACE = rangeText(JS_SPACE);
const NOT_SPACE = rangeText(complement(JS_SPACE));
// JavaScript's `.` without the s flag: anything but a line terminator.
const DOT = `[^${rangeText([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
])}]`;
const ANY = `[${hex(0)}-${hex(0x10ffff)}]`;

/**
 * Rewrites a JavaScript pattern (ECMA-262 with the `u` flag, as JSON Schema's `pattern`) into RE2's syntax with the
 * same meaning: `.`, `\s` and `\S` as JavaScript reads them, `\uXXXX` and `\u{X}` as `\x{X}`, `[^]`, `\0`, `\cX`
 * and `\b` in a class. What RE2 cannot run in linear time (backreferences, lookahead and lookbehind) throws a
 * `SyntaxError` saying so.
 */
export function toLinearPattern(pattern: string): string {
  let out = '';
  let inClass = false;
  let index = 0;
  const refuse = (what: string): never => {
    throw new SyntaxError(`${what} cannot be checked in linear time; use a pattern without it`);
  };
  while (index < pattern.length) {
    const char = pattern[index]!;
    if (char === '\\') {
      const next = pattern[index + 1] ?? '';
      index += 2;
      if (next === 's') out += inClass ? SPACE : `[${SPACE}]`;
      else if (next === 'S') out += inClass ? NOT_SPACE : `[^${SPACE}]`;
      else if (next === 'u') {
        let code: number;
        if (pattern[index] === '{') {
          const end = pattern.indexOf('}', index);
          code = parseInt(pattern.slice(index + 1, end), 16);
          index = end + 1;
        } else {
          code = parseInt(pattern.slice(index, index + 4), 16);
          index += 4;
          // A surrogate pair written as two escapes is one code point (with the u flag).
          const low = /^\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(pattern.slice(index));
          if (code >= 0xd800 && code <= 0xdbff && low !== null) {
            code = 0x10000 + ((code - 0xd800) << 10) + (parseInt(low[1]!, 16) - 0xdc00);
            index += 6;
          }
        }
        out += hex(code);
      } else if (next === 'c') {
        out += hex(pattern.charCodeAt(index) % 32);
        index += 1;
      } else if (next === '0') out += hex(0);
      else if (next === 'b' && inClass) out += hex(8);
      else if (/[1-9]/.test(next) || next === 'k') refuse('a backreference');
      else out += `\\${next}`;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      out += char;
      index += 1;
      continue;
    }
    if (char === '[') {
      if (pattern.startsWith('[^]', index)) {
        out += ANY;
        index += 3;
        continue;
      }
      if (pattern.startsWith('[]', index)) refuse('an empty class');
      inClass = true;
      out += char;
      // A ']' right after '[' or '[^' is a literal in RE2 but ends the class in JavaScript (handled above).
      index += 1;
      if (pattern[index] === '^') {
        out += '^';
        index += 1;
      }
      continue;
    }
    if (char === '(' && pattern[index + 1] === '?') {
      const kind = pattern.slice(index + 2, index + 4);
      if (kind.startsWith('=') || kind.startsWith('!') || kind === '<=' || kind === '<!') refuse('a lookahead or lookbehind');
    }
    out += char === '.' ? DOT : char;
    index += 1;
  }
  return out;
}

/**
 * Compiles a JavaScript pattern for RE2 (linear time in the length of the tested text, whatever the pattern):
 * `test(text)` answers as `new RegExp(pattern, flags).test(text)` would. Only the `u` flag (or none) is taken.
 * @throws SyntaxError for a pattern JavaScript refuses, one longer than `MAX_LINEAR_PATTERN_CHARS`, or one RE2
 * cannot run in linear time (the message says why).
 */
export function compileLinearPattern(pattern: string, flags = 'u'): BoundedRegExp {
  if (flags !== 'u' && flags !== '') throw new SyntaxError(`the flags "${flags}" are not supported (only "u")`);
  if (pattern.length > MAX_LINEAR_PATTERN_CHARS)
    throw new SyntaxError(`the pattern is ${pattern.length} characters long; at most ${MAX_LINEAR_PATTERN_CHARS} are allowed`);
  const source = new RegExp(pattern, 'u').toString();
  let compiled: RE2JS;
  try {
    compiled = loadRe2().compile(toLinearPattern(pattern));
  } catch (error) {
    if (error instanceof SyntaxError) throw error;
    throw new SyntaxError(`the linear-time engine (RE2) does not take it: ${(error as Error).message.replace(/^error parsing regexp: /, '')}`);
  }
  return { test: (text: string) => compiled.matcher(String(text)).find(), toString: () => source };
}

/**
 * A regular-expression engine for Ajv's `code.regExp` option that runs every `pattern` in linear time (RE2, through
 * re2js), so no pattern can make validation backtrack: a pattern it cannot run that way makes Ajv refuse the
 * schema. Unlike `createBoundedRegExpEngine` (a time limit per test), a pattern never gives a wrong answer.
 */
export function createLinearRegExpEngine(): BoundedRegExpEngine {
  return Object.assign((pattern: string, flags: string) => compileLinearPattern(pattern, flags), { code: 'linearRegExp' });
}
