import { describe, expect, it } from 'vitest';
import { findUnstorableText, formatPath, replaceUnstorableText } from './unstorable-text.js';

describe('findUnstorableText', () => {
  it('finds a NUL or a lone surrogate in any string or key, naming its path', () => {
    expect(findUnstorableText({ result: { items: ['a', 'b', 'c', { name: 'x\u0000y' }] } })).toMatchObject({
      path: 'result.items[3].name',
      where: 'text',
      character: 'U+0000',
    });
    expect(findUnstorableText(['ok', 'high \uD83D alone'])).toMatchObject({ path: '[1]', character: 'U+D83D' });
    expect(findUnstorableText({ low: 'alone \uDE00 low' })).toMatchObject({ path: 'low', character: 'U+DE00' });
    expect(findUnstorableText({ 'odd key': { 'k\u0000': 1 } })).toMatchObject({ path: '["odd key"]["k\\u0000"]', where: 'key' });
    expect(findUnstorableText('\u0000')).toMatchObject({ path: '$' });
  });

  it('passes well-formed text: surrogate pairs, U+FFFD, other control characters', () => {
    expect(findUnstorableText({ emoji: '😀 \uD83D\uDE00', replacement: '\uFFFD', controls: '\u0001\t\n\u007f', [`key 😀`]: ['\uDBFF\uDFFF'] })).toBeUndefined();
    expect(findUnstorableText(null)).toBeUndefined();
    expect(findUnstorableText(42)).toBeUndefined();
  });

  it('walks 100,000 levels of nesting without recursion, and an object seen twice once', () => {
    let deep: unknown = 'bottom\u0000';
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(findUnstorableText(deep)?.path).toBe(`${'[0]'.repeat(100_000)}`);
    const cyclic: Record<string, unknown> = { name: 'fine' };
    cyclic.self = cyclic;
    expect(findUnstorableText(cyclic)).toBeUndefined();
  });

  it('describes the problem so that a client or a model can fix it', () => {
    expect(findUnstorableText({ text: 'a\u0000' })?.description).toBe(
      'the text contains a NUL character (U+0000), which cannot be stored; remove it or replace it (e.g. with U+FFFD)',
    );
    expect(findUnstorableText({ 'a\uD800': 1 })?.description).toContain('this object key contains a lone surrogate (U+D800: half of a UTF-16 pair');
  });
});

describe('replaceUnstorableText', () => {
  it('replaces each NUL and lone surrogate with U+FFFD in strings and keys, keeping pairs and the rest', () => {
    const value = { text: 'a\u0000b\uD83D\uDE00c\uD83D', ['k\uDE00']: ['\u0000'], n: 1, kept: null, __proto__key: 'x' };
    expect(replaceUnstorableText(value)).toEqual({ text: 'a\uFFFDb😀c\uFFFD', ['k\uFFFD']: ['\uFFFD'], n: 1, kept: null, __proto__key: 'x' });
    expect(value.text).toBe('a\u0000b\uD83D\uDE00c\uD83D');
  });

  it('returns the value itself when nothing needs replacing', () => {
    const value = { text: 'fine 😀' };
    expect(replaceUnstorableText(value)).toBe(value);
  });

  it('keeps an own "__proto__" key as data', () => {
    const parsed = JSON.parse('{"__proto__": "a\\u0000"}') as Record<string, unknown>;
    const replaced = replaceUnstorableText(parsed);
    expect(Object.hasOwn(replaced, '__proto__')).toBe(true);
    expect(JSON.stringify(replaced)).toBe('{"__proto__":"a\uFFFD"}');
  });
});

describe('formatPath', () => {
  it('writes identifiers after dots, indexes and other keys in brackets', () => {
    expect(formatPath([])).toBe('$');
    expect(formatPath(['result', 'items', 3, 'name'])).toBe('result.items[3].name');
    expect(formatPath([0, 'a b', '$ok'])).toBe('[0]["a b"].$ok');
  });
});
