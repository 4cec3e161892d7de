import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { startLocalServer } from './__fixtures__/local-server.js';
import { htmlToMarkdown, htmlToMarkdownYielding } from './html-to-markdown.js';
import { createWebFetchTool } from './web-fetch-tool.js';

// A documentation page as sites write it: a data table with a caption and <thead>, a table with a
// two-row header (colspan, rowspan) and a rowspan in the body, <pre> with and without <code>, <br>
// line breaks and Markdown-special characters in code, and formulas as Wikipedia (hidden MathML with a
// TeX annotation beside a fallback image) and MathJax (assistive MathML without annotation) write them.
const page = readFileSync(new URL('./__fixtures__/reference-page.html', import.meta.url), 'utf8');
const { markdown, ...metadata } = htmlToMarkdown(page, 'https://docs.tidewater.example/guides/401');

function section(heading: string): string {
  const start = markdown.indexOf(`## ${heading}`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

describe('htmlToMarkdown on real-shaped markup', () => {
  test('reads the page metadata', () => {
    expect(metadata).toMatchObject({ title: 'Handling 401 responses in the fetch client', byline: 'Mara Ilić', publishedTime: '2026-03-02T09:30:00Z', siteName: 'Tidewater Docs', extraction: 'article' });
  });

  test('writes a data table with headers as a GFM table, pipes escaped, inline markup kept', () => {
    expect(section('Status codes')).toBe(
      [
        '## Status codes',
        '',
        'Status codes the client reports',
        '',
        '| Status | Meaning | Retried? |',
        '| --- | --- | --- |',
        '| `401` | The token is missing or _expired_ | No |',
        '| `429` | Too many requests \\| slow down | Yes, after `Retry-After` |',
        '| `503` | The service is [down for maintenance](https://docs.tidewater.example/status) | Yes |',
        '',
      ].join('\n'),
    );
  });

  test('merges a two-row header with colspan into one label per column and repeats a rowspan in each row', () => {
    expect(section('Retry budget per tier')).toBe(
      [
        '## Retry budget per tier',
        '',
        '| Tier | Retries / Reads | Retries / Writes | Timeout |',
        '| --- | --- | --- | --- |',
        '| Free | 2 | 0 | 10 s |',
        '| Free | 3 | 1 | 20 s |',
        '| Team | 5 (shared) |   | 30 s |',
        '',
      ].join('\n'),
    );
  });

  test('writes every <pre> as a fenced block with its text verbatim: no escapes, <br> as newlines, the language class, a longer fence', () => {
    const code = section('Checking the status');
    // <pre> without <code>: the text exactly as written, Markdown characters unescaped.
    expect(code).toContain(
      ['```', 'if (res.status == 401 && !retried) {', '  // *not* a _markdown_ emphasis: [link](x) # heading', '  await refresh_token(); retried = true;', '}', '```'].join('\n'),
    );
    // <pre><code class="language-js"> with <br> between the lines.
    expect(code).toContain(
      ['```js', "const res = await client.get('/me');", 'if (res.status === 401) {', "  throw new AuthError(`token ${res.headers.get('x-token-id')} expired`);", '}', '```'].join('\n'),
    );
    // Code holding a ``` fence gets a four-backtick fence; the lang-* class names the language.
    expect(code).toContain(['````markdown', 'Use a fence:', '```sh', 'npm install tidewater', '```', '````'].join('\n'));
  });

  test('keeps formulas: the TeX annotation when there is one (fallback image dropped), else the MathML read as text', () => {
    const text = section('How long to wait');
    expect(text).toContain('The wait before retry n is $t_{n}=b\\cdot 2^{n}$ milliseconds');
    expect(text).not.toContain('wikimedia.org');
    expect(text).toContain('the jitter keeps it within (t_n)/2 ≤ w ≤ t_n so two clients');
  });
});

describe('tables that cannot be Markdown tables', () => {
  test('a layout table holding another table becomes its cells\' content, block by block', () => {
    const html =
      '<html><body><main><h1>Results</h1><p>The nightly run on all three platforms finished; the numbers are below, with the layout the build page uses.</p>' +
      '<table class="layout"><tr><td><p>Left column: the summary of the nightly run.</p></td><td>' +
      '<table><thead><tr><th>Platform</th><th>Passed</th></tr></thead><tbody><tr><td>linux</td><td>412</td></tr><tr><td>macos</td><td>409</td></tr></tbody></table>' +
      '</td></tr></table></main></body></html>';

    const { markdown } = htmlToMarkdown(html, 'https://ci.example/nightly');

    expect(markdown).toContain('Left column: the summary of the nightly run.\n\n| Platform | Passed |\n| --- | --- |\n| linux | 412 |\n| macos | 409 |');
    expect(markdown.match(/\| --- \|/g)).toHaveLength(1);
  });

  test('a table with a code block in a cell becomes one record per row, the code still fenced and verbatim', () => {
    const html =
      '<html><body><article><h1>Commands</h1><p>Each command below is run from the repository root; the second one needs the database to be up first.</p>' +
      '<table><thead><tr><th>Step</th><th>Command</th></tr></thead><tbody>' +
      '<tr><td>Install</td><td><pre><code class="language-sh">pnpm install\npnpm build</code></pre></td></tr>' +
      '<tr><td>Test</td><td><pre>pnpm test -- --run | tee out.txt</pre></td></tr>' +
      '</tbody></table></article></body></html>';

    const { markdown } = htmlToMarkdown(html, 'https://docs.example/commands');

    expect(markdown).toContain(['**Step:** Install', '', '**Command:**', '', '```sh', 'pnpm install', 'pnpm build', '```', '', '* * *', '', '**Step:** Test', '', '**Command:**', '', '```', 'pnpm test -- --run | tee out.txt', '```'].join('\n'));
    expect(markdown).not.toContain('| --- |');
  });

  test('a table without header cells gets an empty header row', () => {
    const html = '<html><body><table><tr><td>alpha</td><td>1</td></tr><tr><td>beta</td><td>2</td></tr></table></body></html>';
    expect(htmlToMarkdown(html, 'https://x.example/').markdown).toBe('|   |   |\n| --- | --- |\n| alpha | 1 |\n| beta | 2 |');
  });
});

describe('metadata of a page longer than the conversion cap', () => {
  const filler = Array.from({ length: 400 }, (_, index) => `<p>Paragraph ${index} of the long history of the harbour, its trade and its people over three centuries.</p>`).join('\n');
  const page = [
    '<!DOCTYPE html><html><head><title>Harbour history - Coastal Wiki</title>',
    '<meta property="og:site_name" content="Coastal Wiki"><meta name="author" content="Ana Ngata &amp; Tom Reid">',
    '<meta property="article:published_time" content="2025-11-04T08:00:00Z"></head>',
    '<body><main><h1>Harbour history</h1><p class="byline">By Ana Ngata and Tom Reid</p>',
    filler,
    '</main>',
    // Wikipedia puts its JSON-LD at the very end of the page, far past any cut.
    '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","name":"Harbour history","headline":"three centuries of a working port","author":{"@type":"Organization","name":"Contributors to Coastal Wiki"},"publisher":{"@type":"Organization","name":"Coastal Wiki Foundation"},"datePublished":"2003-05-01T10:00:00Z"}</script>',
    '</body></html>',
  ].join('\n');

  test('reads title, byline, date and site from the whole document before the cut', () => {
    const result = htmlToMarkdown(page, 'https://wiki.example/Harbour', { maxHtmlCharacters: 4_000 });

    expect(result.convertedLength).toBeLessThanOrEqual(4_000);
    expect(result.htmlLength).toBeGreaterThan(30_000);
    expect(result.markdown).not.toContain('Paragraph 399');
    expect(result).toMatchObject({ title: 'Harbour history', byline: 'Contributors to Coastal Wiki', publishedTime: '2003-05-01T10:00:00Z', siteName: 'Coastal Wiki Foundation' });
  });

  test('without JSON-LD, the meta tags near the start give them', () => {
    const withoutJsonLd = page.replace(/<script type="application\/ld\+json">.*<\/script>/, '');
    const result = htmlToMarkdown(withoutJsonLd, 'https://wiki.example/Harbour', { maxHtmlCharacters: 4_000 });
    expect(result).toMatchObject({ title: 'Harbour history - Coastal Wiki', byline: 'Ana Ngata & Tom Reid', publishedTime: '2025-11-04T08:00:00Z', siteName: 'Coastal Wiki' });
  });
});

describe('web_fetch on the page', () => {
  test('the header names title, site, byline and date, and the body has the table and code', async () => {
    const server = await startLocalServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(page);
    });
    try {
      const tool = createWebFetchTool({ allowHosts: ['127.0.0.1'] });
      const result = await tool.execute({ url: `${server.origin}/guides/401` }, { signal: AbortSignal.timeout(10_000), callId: 'c1', toolName: 'web_fetch' });
      expect((result.content as string).split('\n').slice(1, 5)).toEqual(['Title: Handling 401 responses in the fetch client', 'Site: Tidewater Docs', 'Byline: Mara Ilić', 'Published: 2026-03-02T09:30:00Z']);
      expect(result.content).toContain('| `401` | The token is missing or _expired_ | No |');
      expect(result.content).toContain('if (res.status == 401 && !retried) {');
    } finally {
      await server.close();
    }
  });

  test('the conversion web_fetch uses gives the event loop turns between its stages', async () => {
    let turns = 0;
    let ticking = true;
    const tick = (): void => {
      turns += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    await new Promise((resolve) => setImmediate(resolve));
    const before = turns;
    htmlToMarkdown(page, 'https://docs.tidewater.example/');
    const duringSync = turns - before;
    const yielding = await htmlToMarkdownYielding(page, 'https://docs.tidewater.example/');
    const duringYielding = turns - before;
    ticking = false;

    expect(duringSync).toBe(0);
    expect(duringYielding).toBeGreaterThanOrEqual(3);
    expect(yielding.markdown).toBe(markdown);
  });
});
