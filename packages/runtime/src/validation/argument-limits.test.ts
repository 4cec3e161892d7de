import { describe, expect, it } from 'vitest';
import { jsonNestingDepth, MAX_ARGUMENT_BYTES, utf8SizeOver } from './argument-limits.js';

describe('utf8SizeOver', () => {
  it('is undefined for text within the limit, counting UTF-8 bytes', () => {
    expect(utf8SizeOver('{"a":1}', 10)).toBeUndefined();
    expect(utf8SizeOver('é'.repeat(5), 10)).toBeUndefined(); // 10 bytes
    expect(utf8SizeOver('é'.repeat(6), 10)).toBe(12);
    expect(utf8SizeOver('😀'.repeat(3), 10)).toBe(12); // 4 bytes each, 2 UTF-16 units each
  });

  it('reports the size of text over 1 MiB', () => {
    expect(utf8SizeOver('a'.repeat(MAX_ARGUMENT_BYTES), MAX_ARGUMENT_BYTES)).toBeUndefined();
    expect(utf8SizeOver('a'.repeat(MAX_ARGUMENT_BYTES + 1), MAX_ARGUMENT_BYTES)).toBe(MAX_ARGUMENT_BYTES + 1);
    expect(utf8SizeOver('€'.repeat(MAX_ARGUMENT_BYTES / 2), MAX_ARGUMENT_BYTES)).toBe((MAX_ARGUMENT_BYTES / 2) * 3);
  });
});

describe('jsonNestingDepth', () => {
  it('counts brackets, not the ones inside strings', () => {
    expect(jsonNestingDepth('{}', 10)).toBe(1);
    expect(jsonNestingDepth('{"a":[{"b":[]}]}', 10)).toBe(4);
    expect(jsonNestingDepth('{"a":"[[[[[[[[[[[[\\"[[[["}', 10)).toBe(1);
    expect(jsonNestingDepth('no json', 10)).toBe(0);
  });

  it('stops as soon as the limit is passed, also for unclosed or invalid text', () => {
    expect(jsonNestingDepth('['.repeat(100_000), 512)).toBe(513);
    expect(jsonNestingDepth('{a: ['.repeat(1000), 512)).toBe(513);
    expect(jsonNestingDepth(`${'['.repeat(512)}${']'.repeat(512)}`, 512)).toBe(512);
  });
});
