import { describe, expect, it } from 'vitest';
import { formatCount, plural } from './format.js';

describe('formatCount', () => {
  it('groups the digits of whole numbers as toLocaleString("en-US") does', () => {
    const counts = [0, 1, 7, 12, 999, 1000, 1234, 65_536, 999_999, 1_000_000, 12_345_678, Number.MAX_SAFE_INTEGER, -1, -999, -1000, -1_234_567, Number.MIN_SAFE_INTEGER];
    for (const count of counts) expect(formatCount(count)).toBe(count.toLocaleString('en-US'));
    expect(formatCount(1234)).toBe('1,234');
    expect(formatCount(-1_234_567)).toBe('-1,234,567');
  });

  it('leaves fractions, -0, huge and non-finite numbers to toLocaleString', () => {
    for (const count of [1234.5678, 0.5, -0, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(formatCount(count)).toBe(count.toLocaleString('en-US'));
    }
  });

  it('is what plural() prints', () => {
    expect(plural(1, 'tool call')).toBe('1 tool call');
    expect(plural(12_000, 'line')).toBe('12,000 lines');
  });
});
