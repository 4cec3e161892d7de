import { describe, expect, test } from 'vitest';
import { stripHeavyMarkup } from './strip-heavy-markup.js';

describe('stripHeavyMarkup', () => {
  test('removes scripts, styles, svg and comments but keeps JSON-LD and the text around them', () => {
    const html =
      '<p>a</p><script>var x = "</p>";</script><SCRIPT src="t.js"></SCRIPT><style>p{}</style><!-- note -->' +
      '<svg viewBox="0 0 1 1"><path d="M0"/></svg><script type="application/ld+json">{"@type":"Article"}</script><p>b</p><scripts>keep</scripts>';
    expect(stripHeavyMarkup(html)).toBe('<p>a</p><script type="application/ld+json">{"@type":"Article"}</script><p>b</p><scripts>keep</scripts>');
  });

  test('keeps an element left open at the end and stays linear on many unclosed tags', () => {
    expect(stripHeavyMarkup('<p>a</p><script>never closed')).toBe('<p>a</p><script>never closed');
    const hostile = '<script>'.repeat(200_000);
    expect(stripHeavyMarkup(hostile)).toBe(hostile);
  });
});
