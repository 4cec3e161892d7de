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
    });
  });

  test('drops images that are not http(s) and keeps the alt text of the others', () => {
    const html = '<html><body><p>Logo <img src="data:image/png;base64,AAAA" alt="inline"> and <img src="/a.png" alt="A chart"></p></body></html>';
    const { markdown } = htmlToMarkdown(html, 'https://x.example/page');
    expect(markdown).not.toContain('data:');
    expect(markdown).toMatch(/^Logo +and !\[A chart\]\(https:\/\/x\.example\/a\.png\)$/);
  });
});
