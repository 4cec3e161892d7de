import { describe, expect, it } from 'vitest';
import { createBoundedRegExpEngine } from './bounded-regexp.js';

describe('createBoundedRegExpEngine', () => {
  it('tests like the native RegExp, with the unicode flag, and keeps its source as its string form', () => {
    const boundedRegExp = createBoundedRegExpEngine();
    const digits = boundedRegExp('^\\p{Nd}+$', 'u');
    expect(digits.test('0123')).toBe(true);
    expect(digits.test('01a')).toBe(false);
    expect(digits.toString()).toBe('/^\\p{Nd}+$/u');
    const anchored = boundedRegExp('b', '');
    expect([anchored.test('abc'), anchored.test('abc'), anchored.test('xyz')]).toEqual([true, true, false]);
  });

  it('stops a catastrophic pattern instead of hanging, and gives it up from then on', () => {
    const boundedRegExp = createBoundedRegExpEngine();
    const catastrophic = boundedRegExp('^(a+)+$', '');
    expect(catastrophic.test('aaaa')).toBe(true);
    // Native backtracking on this input takes hours; the vm timeout ends it.
    expect(catastrophic.test(`${'a'.repeat(60)}!`)).toBe(false);
    // Given up: even a matching string is refused now, without running the pattern again.
    expect(catastrophic.test('aaaa')).toBe(false);
    // Other patterns of the same engine are not affected.
    expect(boundedRegExp('^a+$', '').test('aaaa')).toBe(true);
  });

  it('throws a SyntaxError for an invalid pattern, like new RegExp', () => {
    expect(() => createBoundedRegExpEngine()('(unclosed', '')).toThrow(SyntaxError);
  });
});
