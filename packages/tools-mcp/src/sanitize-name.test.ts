import { expect, test } from 'vitest';
import { sanitizeName, uniqueName } from './sanitize-name.js';

test('valid names are kept; others get "_" for each other character, cut to 64', () => {
  expect(sanitizeName('get-sum')).toBe('get-sum');
  expect(sanitizeName('github.com/issues')).toBe('github_com_issues');
  expect(sanitizeName('x'.repeat(80))).toBe('x'.repeat(64));
  expect(sanitizeName('é')).toBe('mcp');
  expect(sanitizeName('', 'tool')).toBe('tool');
});

test('uniqueName adds a numbered suffix within 64 characters', () => {
  const taken = new Set<string>();
  expect(uniqueName('a', taken)).toBe('a');
  expect(uniqueName('a', taken)).toBe('a_2');
  expect(uniqueName('a', taken)).toBe('a_3');
  expect(uniqueName('y'.repeat(64), taken)).toBe('y'.repeat(64));
  expect(uniqueName('y'.repeat(64), taken)).toBe(`${'y'.repeat(62)}_2`);
});
