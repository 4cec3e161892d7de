import { describe, expect, test } from 'vitest';
import { displayUrl, formatBytes, plainText } from './plain-text.js';

describe('plain-text helpers', () => {
  test('plainText strips tags and decodes entities', () => {
    expect(plainText('A <strong>bold</strong> &amp; &#x27;quoted&#39; &hellip;\n more')).toBe("A bold & 'quoted' … more");
  });
  test('formatBytes', () => {
    expect([formatBytes(512), formatBytes(12 * 1024), formatBytes(3.4 * 1024 * 1024)]).toEqual(['512 B', '12 KB', '3.4 MB']);
  });
  test('displayUrl drops scheme, query and trailing slash', () => {
    expect(displayUrl('https://example.com/page/?q=1')).toBe('example.com/page');
    expect(displayUrl('https://example.com/')).toBe('example.com');
  });
});
