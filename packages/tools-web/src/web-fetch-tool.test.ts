import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startLocalServer, type LocalServer } from './__fixtures__/local-server.js';
import type { HostLookup } from './vet-host.js';
import { createWebFetchTool, type WebFetchSettings } from './web-fetch-tool.js';

const articleHtml = readFileSync(new URL('./__fixtures__/article.html', import.meta.url), 'utf8');
const longText = Array.from({ length: 60 }, (_, line) => `line ${String(line).padStart(2, '0')} ${'x'.repeat(90)}`).join('\n');
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), Buffer.alloc(4000, 7)]);

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer((request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    switch (path) {
      case '/article':
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        response.end(articleHtml);
        return;
      case '/r1':
        response.writeHead(302, { Location: '/r2' });
        response.end();
        return;
      case '/r2':
        response.writeHead(301, { Location: `${server.origin}/article` });
        response.end();
        return;
      case '/loop':
        response.writeHead(302, { Location: '/loop' });
        response.end();
        return;
      case '/to-private':
        response.writeHead(302, { Location: `http://intranet.test:${server.port}/secret` });
        response.end();
        return;
      case '/to-localhost':
        response.writeHead(307, { Location: `http://localhost:${server.port}/article` });
        response.end();
        return;
      case '/to-file':
        response.writeHead(302, { Location: 'file:///etc/passwd' });
        response.end();
        return;
      case '/big': {
        response.writeHead(200, { 'Content-Type': 'text/plain' });
        const chunk = 'a'.repeat(64 * 1024);
        let sent = 0;
        const write = (): void => {
          while (sent < 48) {
            sent += 1;
            if (!response.write(chunk)) {
              response.once('drain', write);
              return;
            }
          }
          response.end();
        };
        response.on('error', () => {});
        write();
        return;
      }
      case '/slow':
        response.writeHead(200, { 'Content-Type': 'text/plain' });
        response.write('first bytes...');
        return; // never ends
      case '/image.png':
        response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(png.length) });
        response.end(png);
        return;
      case '/untyped':
        response.end(png);
        return;
      case '/data.json':
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end('{"name":"tide","depths":[1,2],"nested":{"ok":true}}');
        return;
      case '/gzip':
        response.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Encoding': 'gzip' });
        response.end(gzipSync('compressed hello'));
        return;
      case '/long':
        response.writeHead(200, { 'Content-Type': 'text/plain' });
        response.end(longText);
        return;
      case '/latin1':
        response.writeHead(200, { 'Content-Type': 'text/plain; charset=iso-8859-1' });
        response.end(Buffer.from('Caf\xe9 cr\xe8me', 'latin1'));
        return;
      case '/huge-html': {
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        const sections = Array.from({ length: 400 }, (_, index) => `<h2>Section ${index}</h2><p>${'Tide pool notes. '.repeat(20)}</p>`).join('\n');
        response.end(`<html><head><title>Field notes</title><script>${'x'.repeat(50_000)}</script></head><body><main>${sections}</main></body></html>`);
        return;
      }
      case '/plain':
        response.writeHead(200, { 'Content-Type': 'text/plain' });
        response.end('just text');
        return;
      default:
        response.writeHead(404, { 'Content-Type': 'text/html' });
        response.end('<html><head><title>Not here</title></head><body><h1>Page not found</h1></body></html>');
    }
  });
});
afterAll(async () => {
  await server.close();
});

const context = () => ({ signal: AbortSignal.timeout(10_000), callId: 'c1', toolName: 'web_fetch' });

function stubLookup(table: Record<string, string | string[]>): HostLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    const entry = table[hostname];
    if (entry === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return (Array.isArray(entry) ? entry : [entry]).map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
  return Object.assign(lookup, { calls });
}

function localTool(settings: WebFetchSettings = {}) {
  return createWebFetchTool({ allowHosts: ['127.0.0.1'], ...settings });
}

describe('web_fetch content', () => {
  test('turns an article page into its article text as Markdown, without navigation, ads or footer', async () => {
    const tool = localTool();
    const url = `${server.origin}/article`;

    const result = await tool.execute({ url }, context());

    const text = result.content as string;
    expect(result.isError).toBeUndefined();
    expect(text).toContain(`URL: ${url}`);
    expect(text).toContain('Title: How Tide Pools Survive Low Tide');
    expect(text).toContain('Content-Type: text/html');
    expect(text).toContain('Twice a day the ocean pulls back from the rocky shore');
    expect(text).toContain('## Built for extremes');
    expect(text).toContain(`[Point Reyes Marine Laboratory](${server.origin}/science/marine-lab)`);
    expect(text).toContain('-   Anemones retract and cover themselves with gravel.');
    expect(text).toContain('> Tide pools are a window');
    for (const noise of ['Subscribe for $1/week', 'MegaBoat', 'Sunscreen that lasts', 'Most read', 'All rights reserved', 'Accept all cookies', 'dataLayer']) {
      expect(text).not.toContain(noise);
    }
    expect(result.details).toMatchObject({ status: 200, kind: 'html', extraction: 'article', truncated: false, bytes: Buffer.byteLength(articleHtml) });
    expect(tool.describeActivity({ url })).toBe(`Fetching 127.0.0.1:${server.port}/article`);
    expect(tool.describeCompletedActivity?.({ url }, result)).toBe(`Fetched 127.0.0.1:${server.port}/article (${Math.round(Buffer.byteLength(articleHtml) / 1024)} KB)`);
  });

  test('pretty-prints JSON', async () => {
    const result = await localTool().execute({ url: `${server.origin}/data.json` }, context());
    expect(result.content).toContain('{\n  "name": "tide",\n  "depths": [\n    1,\n    2\n  ],\n  "nested": {\n    "ok": true\n  }\n}');
  });

  test('decodes the charset the server declares', async () => {
    const result = await localTool().execute({ url: `${server.origin}/latin1` }, context());
    expect(result.content).toMatch(/\n\nCafé crème$/);
  });

  test('passes plain text through and decodes gzip', async () => {
    const plain = await localTool().execute({ url: `${server.origin}/plain` }, context());
    expect(plain.content).toMatch(/\n\njust text$/);
    const gzip = await localTool().execute({ url: `${server.origin}/gzip` }, context());
    expect(gzip.content).toMatch(/\n\ncompressed hello$/);
  });

  test('describes binary content instead of dumping it, without reading the body', async () => {
    const result = await localTool().execute({ url: `${server.origin}/image.png` }, context());
    expect(result.content).toContain('Binary content (image/png, 4 KB) was not included');
    expect(result.details).toMatchObject({ kind: 'binary', bytes: 0, size: png.length });
    expect(createWebFetchTool().describeCompletedActivity?.({ url: `${server.origin}/image.png` }, result)).toBe(`Fetched 127.0.0.1:${server.port}/image.png (4 KB)`);
    const sniffed = await localTool().execute({ url: `${server.origin}/untyped` }, context());
    expect(sniffed.content).toContain('Binary content (application/octet-stream, 4 KB) was not included');
  });

  test('returns an HTTP error status as an error result with the page text', async () => {
    const result = await localTool().execute({ url: `${server.origin}/missing` }, context());
    expect(result.isError).toBe(true);
    expect(result.content).toContain('HTTP 404 Not Found');
    expect(result.content).toContain('Page not found');
  });
});

describe('web_fetch limits', () => {
  test('follows redirects and reports where it ended', async () => {
    const result = await localTool().execute({ url: `${server.origin}/r1` }, context());
    expect(result.isError).toBeUndefined();
    expect(result.content).toContain(`URL: ${server.origin}/article (redirected from ${server.origin}/r1)`);
    expect(result.details?.redirects).toEqual([`${server.origin}/r2`, `${server.origin}/article`]);
  });

  test('stops after maxRedirects', async () => {
    const result = await localTool({ maxRedirects: 3 }).execute({ url: `${server.origin}/loop` }, context());
    expect(result.isError).toBe(true);
    expect(result.content).toContain('fetch_too_many_redirects');
    expect(result.content).toContain('Stopped after 3 redirects');
  });

  test('cuts an oversize body at the size cap and says so', async () => {
    const result = await localTool({ maxBytes: 100_000 }).execute({ url: `${server.origin}/big`, max_length: 1000 }, context());
    expect(result.isError).toBeUndefined();
    expect(result.details).toMatchObject({ bytes: 100_000, truncated: true, totalCharacters: 100_000 });
    expect(result.content).toContain('Content-Type: text/plain (98 KB, cut at the 98 KB size limit)');
  });

  test('converts only the first maxHtmlCharacters of a long HTML page and says so', async () => {
    const result = await localTool({ maxHtmlCharacters: 20_000 }).execute({ url: `${server.origin}/huge-html`, max_length: 100_000 }, context());
    expect(result.isError).toBeUndefined();
    const text = String(result.content);
    expect(text).toMatch(/^Note: only the first 20 KB of this page's \d+ KB of HTML \(scripts and styles aside\) were converted; the rest of the page is left out\.$/m);
    expect(text).toContain('Section 0');
    expect(text).not.toContain('Section 399');
    expect(result.details?.htmlCut).toEqual({ converted: expect.any(Number), total: expect.any(Number) });
    expect(result.details?.htmlCut?.converted).toBeLessThanOrEqual(20_000);
    // The default limit converts this page (about 150 KB of HTML) whole.
    const whole = await localTool().execute({ url: `${server.origin}/huge-html`, max_length: 100_000, offset: 0 }, context());
    expect(whole.details?.htmlCut).toBeUndefined();
    expect(String(whole.content)).not.toContain('Note: only the first');
  });

  test('times out on a server that stops sending', async () => {
    const result = await localTool({ timeoutMs: 300 }).execute({ url: `${server.origin}/slow` }, context());
    expect(result.isError).toBe(true);
    expect(result.content).toContain('fetch_timeout');
    expect(result.content).toContain('did not finish within 0.3 s');
  });

  test('gives long pages in parts the model continues with offset', async () => {
    const tool = localTool();
    const url = `${server.origin}/long`;
    const first = await tool.execute({ url, max_length: 2000 }, context());
    // 99 characters a line: the first part ends at the last line break that fits in 2000 characters.
    expect(first.details?.nextOffset).toBe(1980);
    expect(first.content).toContain(`[Showing characters 0-1980 of ${longText.length}. To continue, call web_fetch with url "${url}" and offset 1980.]`);

    let collected = '';
    let offset: number | undefined = 0;
    let calls = 0;
    while (offset !== undefined && calls < 20) {
      const part = await tool.execute({ url, offset, max_length: 2000 }, context());
      const body = (part.content as string).split('\n\n').slice(1).join('\n\n').replace(/\n\n\[(Showing|End of).*\]$/, '');
      collected += body;
      offset = part.details?.nextOffset;
      calls += 1;
    }
    expect(collected).toBe(longText);
    expect(calls).toBe(3);
  });
});

describe('web_fetch continuation', () => {
  test('continues a long page from the page fetched earlier in the turn; offset 0 fetches again', async () => {
    const tool = localTool();
    const url = `${server.origin}/long?continuation`;
    const count = () => server.requests.filter((request) => request.url === '/long?continuation').length;

    const first = await tool.execute({ url, max_length: 2000 }, context());
    const second = await tool.execute({ url, offset: first.details!.nextOffset!, max_length: 2000 }, context());
    expect(count()).toBe(1);
    expect(second.details).toMatchObject({ cached: true, offset: 1980 });

    await tool.execute({ url, max_length: 2000 }, context());
    expect(count()).toBe(2);
    // Another tool instance (another turn) shares nothing.
    await localTool().execute({ url, offset: 1980, max_length: 2000 }, context());
    expect(count()).toBe(3);
  });
});

describe('web_fetch safety', () => {
  test('refuses 127.0.0.1 without an allow-list', async () => {
    const before = server.requests.length;
    const result = await createWebFetchTool().execute({ url: `${server.origin}/article` }, context());
    expect(result.isError).toBe(true);
    expect(result.content).toBe(
      `web_fetch failed (fetch_blocked): Refused to fetch ${server.origin}/article: 127.0.0.1 is a loopback address (127.0.0.0/8). web_fetch only reaches public internet addresses.`,
    );
    expect(server.requests.length).toBe(before);
  });

  test.each([
    ['rebind.test', '127.0.0.1', 'resolves to 127.0.0.1, a loopback address'],
    ['metadata.test', '169.254.169.254', 'resolves to 169.254.169.254, a link-local address'],
    ['mapped.test', '::ffff:10.0.0.1', 'resolves to ::ffff:10.0.0.1, an IPv4-mapped IPv6 address of a private address'],
    ['ula.test', 'fd12::1', 'resolves to fd12::1, a unique local IPv6 address'],
    ['teredo.test', '2001:0:4136:e378:8000:63bf:80ff:fffe', 'resolves to 2001:0:4136:e378:8000:63bf:80ff:fffe, a Teredo tunnel address'],
    ['mixed.test', ['93.184.216.34', '10.9.8.7'], 'resolves to 10.9.8.7, a private address'],
  ])('refuses %s, which resolves to %s', async (hostname, address, reason) => {
    const before = server.requests.length;
    const tool = createWebFetchTool({ lookup: stubLookup({ [hostname]: address }) });
    const result = await tool.execute({ url: `http://${hostname}:${server.port}/article` }, context());
    expect(result.isError).toBe(true);
    expect(result.content).toContain('fetch_blocked');
    expect(result.content).toContain(reason);
    expect(server.requests.length).toBe(before);
  });

  test.each([
    ['decimal IPv4', 'http://2130706433:PORT/plain', '127.0.0.1 is a loopback address'],
    ['hex IPv4', 'http://0x7f.1:PORT/plain', '127.0.0.1 is a loopback address'],
    ['IPv6 loopback', 'http://[::1]:PORT/plain', '::1 is the IPv6 loopback address'],
    ['IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]:PORT/plain', '::ffff:7f00:1 is an IPv4-mapped IPv6 address of a loopback address'],
    ['metadata IP', 'http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
  ])('refuses a %s literal', async (_kind, url, reason) => {
    const result = await createWebFetchTool().execute({ url: url.replace('PORT', String(server.port)) }, context());
    expect(result.isError).toBe(true);
    expect(result.content).toContain(reason);
  });

  test('refuses metadata and localhost names before resolving them', async () => {
    const lookup = stubLookup({ 'metadata.google.internal': '8.8.8.8', localhost: '8.8.8.8' });
    const tool = createWebFetchTool({ lookup });
    for (const url of ['http://metadata.google.internal/computeMetadata/v1/', 'http://localhost/']) {
      const result = await tool.execute({ url }, context());
      expect(result.content).toContain('fetch_blocked');
    }
    expect(lookup.calls).toEqual([]);
  });

  test('refuses an allowed host that redirects to a private address', async () => {
    const lookup = stubLookup({ 'intranet.test': '10.0.0.5' });
    const result = await localTool({ lookup }).execute({ url: `${server.origin}/to-private` }, context());
    expect(result.isError).toBe(true);
    expect(result.content).toContain(`Refused to fetch http://intranet.test:${server.port}/secret: intranet.test resolves to 10.0.0.5, a private address`);
    expect(lookup.calls).toEqual(['intranet.test']);
  });

  test('refuses redirects to localhost and to non-http schemes', async () => {
    const toLocalhost = await localTool().execute({ url: `${server.origin}/to-localhost` }, context());
    expect(toLocalhost.content).toContain(`Refused to fetch http://localhost:${server.port}/article`);
    const toFile = await localTool().execute({ url: `${server.origin}/to-file` }, context());
    expect(toFile.content).toContain(`Refused to fetch file:///etc/passwd (redirect from ${server.origin}/to-file): only http and https URLs are fetched.`);
  });

  test('refuses other schemes and bad URLs', async () => {
    const tool = createWebFetchTool();
    expect((await tool.execute({ url: 'file:///etc/passwd' }, context())).content).toContain('only http and https URLs are fetched');
    expect((await tool.execute({ url: 'not a url' }, context())).content).toContain('fetch_url_invalid');
  });

  test('connects to the vetted address, resolving once per hop (no second lookup to rebind)', async () => {
    const lookup = stubLookup({ 'site.test': '127.0.0.1' });
    const tool = createWebFetchTool({ allowHosts: ['site.test'], lookup });
    const result = await tool.execute({ url: `http://site.test:${server.port}/plain` }, context());
    expect(result.isError).toBeUndefined();
    expect(result.content).toMatch(/just text$/);
    expect(lookup.calls).toEqual(['site.test']);
    expect(server.requests.at(-1)?.headers.host).toBe(`site.test:${server.port}`);
  });

  test('tries the next vetted address when the first refuses the connection', async () => {
    // Nothing listens on 127.0.0.2 (the server is bound to 127.0.0.1 only), as when a host's IPv6 address is unreachable.
    const lookup = stubLookup({ 'dual.test': ['127.0.0.2', '127.0.0.1'] });
    const before = server.requests.length;
    const result = await createWebFetchTool({ allowHosts: ['dual.test'], lookup }).execute({ url: `http://dual.test:${server.port}/plain` }, context());
    expect(result.isError).toBeUndefined();
    expect(result.content).toMatch(/just text$/);
    expect(lookup.calls).toEqual(['dual.test']);
    expect(server.requests.length).toBe(before + 1);

    // With no address left, the connection error is reported.
    const alone = await createWebFetchTool({ allowHosts: ['lone.test'], lookup: stubLookup({ 'lone.test': '127.0.0.2' }) }).execute({ url: `http://lone.test:${server.port}/plain` }, context());
    expect(alone.isError).toBe(true);
    expect(alone.content).toContain('fetch_failed');
    expect(alone.content).toContain('ECONNREFUSED');
  });

  test('is read-only and parallel', () => {
    expect(createWebFetchTool()).toMatchObject({ name: 'web_fetch', isReadOnly: true, isDestructive: false, executionMode: 'parallel' });
  });
});
