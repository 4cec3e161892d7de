import { describe, expect, test } from 'vitest';
import { htmlToMarkdown } from './html-to-markdown.js';

describe('htmlToMarkdown', () => {
  test('converts the whole body, minus navigation and scripts, when Readability finds no article', () => {
    const html =
      '<html><head><title>Status</title></head><body><nav><a href="/">Home</a></nav>' +
      '<h1>Service status</h1><p>All systems <b>normal</b>. See <a href="/incidents">incidents</a>.</p>' +
      '<footer>Footer text</footer><script>track()</script></body></html>';

    const result = htmlToMarkdown(html, 'https://status.example/');

    expect(result).toEqual({
      title: 'Status',
      byline: undefined,
      publishedTime: undefined,
      markdown: '# Service status\n\nAll systems **normal**. See [incidents](https://status.example/incidents).',
      extraction: 'page',
      htmlLength: html.length - '<script>track()</script>'.length,
    });
  });

  test('converts only the first maxHtmlCharacters of the HTML, never a tag cut in half', () => {
    const paragraphs = Array.from({ length: 40 }, (_, index) => `<p>Paragraph ${index} about tide pools and the animals that live in them.</p>`).join('');
    const html = `<html><body><main>${paragraphs}<p class="late" data-marker="half-tag">Last words.</p></main></body></html>`;
    const limit = html.indexOf('data-marker') + 5;

    const result = htmlToMarkdown(html, 'https://x.example/', { maxHtmlCharacters: limit });

    expect(result.htmlLength).toBe(html.length);
    expect(result.convertedLength).toBe(html.indexOf('<p class="late"'));
    expect(result.markdown).toContain('Paragraph 0 about tide pools');
    expect(result.markdown).toContain('Paragraph 39 about tide pools');
    expect(result.markdown).not.toContain('data-');
    expect(result.markdown).not.toContain('Last words');
    // Below the limit nothing is cut.
    expect(htmlToMarkdown(html, 'https://x.example/').convertedLength).toBeUndefined();
  });

  test('drops images that are not http(s) and keeps the alt text of the others', () => {
    const html = '<html><body><p>Logo <img src="data:image/png;base64,AAAA" alt="inline"> and <img src="/a.png" alt="A chart"></p></body></html>';
    const { markdown } = htmlToMarkdown(html, 'https://x.example/page');
    expect(markdown).not.toContain('data:');
    expect(markdown).toMatch(/^Logo +and !\[A chart\]\(https:\/\/x\.example\/a\.png\)$/);
  });
});
