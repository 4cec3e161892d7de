import { describe, expect, test } from 'vitest';
import { compileGlob } from './glob-pattern.js';

/** Whether a path (relative, `/`-separated) matches, walking it part by part as the walk does. */
function matches(pattern: string, file: string): boolean {
  const glob = compileGlob(pattern);
  let states = glob.start;
  for (const name of file.split('/')) states = glob.step(states, name);
  return glob.matches(states);
}

/** Whether the walk would open the folder at `folder` (some alternative can still match below it). */
function descends(pattern: string, folder: string): boolean {
  const glob = compileGlob(pattern);
  let states = glob.start;
  for (const name of folder.split('/')) states = glob.step(states, name);
  return glob.descend(states);
}

describe('compileGlob', () => {
  test.each([
    ['*', 'a.ts', true],
    ['*', '.hidden', true],
    ['*', 'src/a.ts', false],
    ['*.md', 'notes.md', true],
    ['*.md', 'notes.mdx', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'src/deep/a.ts', true],
    ['**/*.ts', 'src/deep/a.js', false],
    ['src/**/*.{ts,tsx}', 'src/a/b/c.tsx', true],
    ['src/**/*.{ts,tsx}', 'src/c.ts', true],
    ['src/**/*.{ts,tsx}', 'lib/c.ts', false],
    ['{a,b/{c,d}}/x', 'b/d/x', true],
    ['{a,b/{c,d}}/x', 'b/e/x', false],
    ['file-?.txt', 'file-1.txt', true],
    ['file-?.txt', 'file-10.txt', false],
    ['[ab]*', 'alpha', true],
    ['[!ab]*', 'alpha', false],
    ['[a-c]x', 'bx', true],
    ['\\*.txt', '*.txt', true],
    ['\\*.txt', 'a.txt', false],
    ['a.b', 'axb', false],
    ['**', 'any/depth/at/all', true],
    ['./docs/*', 'docs/a', true],
  ])('%s against %s: %s', (pattern, file, expected) => {
    expect(matches(pattern, file)).toBe(expected);
  });

  test('the walk only opens folders a pattern can reach below', () => {
    expect(descends('*', 'src')).toBe(false);
    expect(descends('src/*.ts', 'src')).toBe(true);
    expect(descends('src/*.ts', 'lib')).toBe(false);
    expect(descends('**/*.ts', 'any/where')).toBe(true);
    expect(compileGlob('*/').onlyFolders).toBe(true);
  });

  test('a pattern expanding to too many alternatives, or a bad class, is refused', () => {
    expect(() => compileGlob('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}')).toThrow(/more than 256 alternatives/);
    expect(() => compileGlob('[z-a]')).toThrow(/not a valid glob/);
  });
});
