import { describe, expect, test } from 'vitest';
import { paginateText } from './paginate-text.js';

describe('paginateText', () => {
  test('ends a page at a line break near the end of the window', () => {
    const text = 'aaaa\nbbbb\ncccc\n';
    expect(paginateText(text, 0, 12)).toEqual({ text: 'aaaa\nbbbb\n', offset: 0, end: 10, total: 15, nextOffset: 10 });
  });

  test('cuts mid-line when there is no line break near the end', () => {
    expect(paginateText('abcdefghij', 0, 4)).toMatchObject({ text: 'abcd', nextOffset: 4 });
  });

  test('never splits a surrogate pair', () => {
    expect(paginateText('ab😀cd', 0, 3)).toMatchObject({ text: 'ab', nextOffset: 2 });
  });

  test('gives an empty last page past the end', () => {
    expect(paginateText('abc', 10, 5)).toEqual({ text: '', offset: 3, end: 3, total: 3, nextOffset: undefined });
  });
});
