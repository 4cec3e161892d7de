import { expect, test } from 'vitest';
import { formatBytes, formatDuration, plural, shortLabel } from './labels.js';

test('durations read like "Ran `npm test` (exit 0, 1.2 s)"', () => {
  expect(formatDuration(40.4)).toBe('40 ms');
  expect(formatDuration(1_234)).toBe('1.2 s');
  expect(formatDuration(12_400)).toBe('12 s');
  expect(formatDuration(125_000)).toBe('2 min 5 s');
});

test('sizes, plurals and one-line labels', () => {
  expect(formatBytes(512)).toBe('512 B');
  expect(formatBytes(1_229)).toBe('1.2 KB');
  expect(formatBytes(3.4 * 1024 * 1024)).toBe('3.4 MB');
  expect(plural(1, 'line')).toBe('1 line');
  expect(plural(3, 'line')).toBe('3 lines');
  expect(shortLabel('npm\n  test')).toBe('npm test');
  expect(shortLabel('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
});
