import { describe, expect, it } from 'vitest';
import { compileLinearPattern, createLinearRegExpEngine, toLinearPattern } from './linear-regexp.js';

const PATTERNS = [
  '^[a-z]+$',
  '^.+$',
  'a.c',
  '^\\s*$',
  '^\\S+$',
  '[\\s\\S]{3}',
  '^[^\\s]+$',
  '\\u00e9',
  '\\u{1F600}',
  '\\uD83D\\uDE00',
  '^[^]$',
  '^\\d{3}-\\d{4}$',
  '\\bword\\b',
  '^(?<year>\\d{4})-(?:0[1-9]|1[0-2])$',
  '^\\p{Lu}\\p{Ll}+$',
  '[\\b]',
  '\\0',
  '\\cJ',
  '^a\\/b$',
  '^[\\-+]?\\d+(\\.\\d+)?$',
  '^.{2,5}?$',
  'x$',
];
const SAMPLES = [
  '',
  'abc',
  'a\nc',
  'a\u2028c',
  'abc def',
  ' \t\u00a0\ufeff',
  '\u3000',
  'Été',
  'é',
  '😀',
  'x😀y',
  '123-4567',
  'a word here',
  'swordfish',
  '2026-07',
  '2026-13',
  'Hello',
  'hELLO',
  '\b',
  '\0',
  '\n',
  'a/b',
  '-12.5',
  '+7',
  'ab\n',
  'x\n',
  'xyz',
  'ab',
  'abcdef',
];

describe('compileLinearPattern', () => {
  it('answers as JavaScript does for the patterns JSON Schema uses (the u flag), on every sample', () => {
    for (const pattern of PATTERNS) {
      const native = new RegExp(pattern, 'u');
      const linear = compileLinearPattern(pattern);
      for (const sample of SAMPLES) expect([pattern, sample, linear.test(sample)]).toEqual([pattern, sample, native.test(sample)]);
      expect(linear.toString()).toBe(native.toString());
    }
  });

  it('checks a catastrophic pattern in linear time: the answer, not a timeout', () => {
    const catastrophic = compileLinearPattern('^(a+)+$');
    expect(catastrophic.test(`${'a'.repeat(100_000)}!`)).toBe(false);
    expect(catastrophic.test('a'.repeat(100_000))).toBe(true);
    // Asked again, still the right answer (nothing is given up).
    expect(catastrophic.test('aaaa')).toBe(true);
  });

  it('refuses what cannot run in linear time, and what JavaScript refuses, with a SyntaxError saying why', () => {
    expect(() => compileLinearPattern('(a)\\1')).toThrow(/backreference cannot be checked in linear time/);
    expect(() => compileLinearPattern('(?<x>a)\\k<x>')).toThrow(/backreference/);
    expect(() => compileLinearPattern('a(?=b)')).toThrow(/lookahead or lookbehind/);
    expect(() => compileLinearPattern('(?<!a)b')).toThrow(/lookahead or lookbehind/);
    expect(() => compileLinearPattern('a{1001}')).toThrow(/linear-time engine \(RE2\) does not take it: invalid repeat count/);
    expect(() => compileLinearPattern('(unclosed')).toThrow(SyntaxError);
    expect(() => compileLinearPattern('a'.repeat(1001))).toThrow(/at most 1000/);
    expect(() => compileLinearPattern('a', 'i')).toThrow(/flags "i"/);
  });

  it('rewrites JavaScript-only syntax into RE2 syntax', () => {
    expect(toLinearPattern('\\u0041')).toBe('\\x{41}');
    expect(toLinearPattern('[.]')).toBe('[.]');
  });

  it('is an Ajv regExp engine', () => {
    const engine = createLinearRegExpEngine();
    expect(engine.code).toBe('linearRegExp');
    expect(engine('^b', 'u').test('bc')).toBe(true);
  });
});
