import { rootCertificates } from 'node:tls';
import { defineWorkerTool, type AgentToolResult, type WorkerAgentTool } from '@core/runtime';
import { z } from 'zod';
import { WebFetchError } from './errors.js';
import { fetchWebResource, type FetchPolicy } from './fetch-web-resource.js';
import { normaliseHostName } from './host-policy.js';
import { createFetchedPageCache, type FetchedPage } from './fetched-page.js';
import { formatFetchedPage } from './format-fetched-page.js';
import { DEFAULT_MAX_HTML_CHARACTERS } from './max-html-characters.js';
import { paginateText } from './paginate-text.js';
import { displayUrl, formatBytes } from './plain-text.js';
import { isReadableMediaType, mediaTypeOf, renderContent } from './render-content.js';
import { systemLookup, type HostLookup } from './vet-host.js';
import { lazySchema } from './lazy-schema.js';

/** Settings of the web_fetch tool. */
export interface WebFetchSettings {
  /** The whole fetch's deadline in ms, redirects included (default 20_000). */
  timeoutMs?: number;
  /** Stop reading a body after this many (decoded) bytes (default 2 MiB). */
  maxBytes?: number;
  /** Redirects followed before giving up (default 5). */
  maxRedirects?: number;
  /** Host names or IP literals that skip the private-address refusal (e.g. `['127.0.0.1']` in tests, an intranet wiki). */
  allowHosts?: string[];
  /** The resolver used for the address checks and the connection (default: the system resolver). */
  lookup?: HostLookup;
  /** The User-Agent header. */
  userAgent?: string;
  /** Characters returned per call when the model gives no `max_length` (default 20_000). */
  defaultMaxLength?: number;
  /** Extra CA certificates (PEM) trusted for https, in addition to Node's bundled roots (an intranet CA). */
  extraCA?: string[];
  /**
   * Most characters of a page's HTML (after scripts, styles and comments are cut out) converted to Markdown
   * (default 524_288). Conversion runs on the event loop at about 0.5 ms per KB; this bounds how long one
   * page can block it. The rest of a longer page is left out and the output says so.
   */
  maxHtmlCharacters?: number;
}

/** What web_fetch records for logs and UIs. */
export interface WebFetchDetails {
  url: string;
  finalUrl?: string;
  redirects?: string[];
  status?: number;
  mediaType?: string;
  kind?: 'html' | 'json' | 'text' | 'binary';
  extraction?: 'article' | 'page';
  /** Bytes of body read (decoded). */
  bytes?: number;
  /** The body's size: the bytes read, or the declared Content-Length when the body was not read (binary types). */
  size?: number;
  /** Whether the body was cut at the size cap. */
  truncated?: boolean;
  /** Set when the HTML was longer than `maxHtmlCharacters`: characters converted and in total. */
  htmlCut?: { converted: number; total: number };
  /** Whether this continuation was served from the page fetched earlier in the turn. */
  cached?: boolean;
  offset?: number;
  end?: number;
  totalCharacters?: number;
  nextOffset?: number;
  error?: { code: string; message: string };
}

const webFetchParameters = lazySchema(() =>
  z.object({
    url: z.string().min(1).max(4000).describe('The absolute http:// or https:// URL to read.'),
    offset: z.number().int().min(0).optional().describe('Character offset to start from, to continue a long page (default 0).'),
    max_length: z.number().int().min(500).max(100_000).optional().describe('Most characters to return in this call (default 20000).'),
  }),
);

/** The web_fetch tool's validated parameters. */
export type WebFetchParams = z.output<ReturnType<typeof webFetchParameters>>;

const DEFAULT_USER_AGENT = 'Mozilla/5.0 (compatible; AnkoleWebFetch/0.1; +https://github.com/ankole)';

/**
 * Builds the web_fetch tool: GETs a public http(s) URL (refusing private, loopback, link-local and
 * metadata addresses after DNS resolution and on every redirect), and returns HTML as readable
 * Markdown, JSON pretty-printed, text as is and other types described, in pages the model can
 * continue with `offset`. Failures come back as error results; `execute` never throws.
 */
export function createWebFetchTool(settings: WebFetchSettings = {}): WorkerAgentTool<WebFetchParams, WebFetchDetails> {
  const timeoutMs = settings.timeoutMs ?? 20_000;
  const defaultMaxLength = settings.defaultMaxLength ?? 20_000;
  const policy: FetchPolicy = {
    timeoutMs,
    maxBytes: settings.maxBytes ?? 2 * 1024 * 1024,
    maxRedirects: settings.maxRedirects ?? 5,
    allowHosts: new Set((settings.allowHosts ?? []).map(normaliseHostName)),
    lookup: settings.lookup ?? systemLookup,
    userAgent: settings.userAgent ?? DEFAULT_USER_AGENT,
    readBody: (headers) => isReadableMediaType(mediaTypeOf(headers)),
    ...(settings.extraCA === undefined || settings.extraCA.length === 0 ? {} : { ca: [...rootCertificates, ...settings.extraCA] }),
  };
  const maxHtmlCharacters = settings.maxHtmlCharacters ?? DEFAULT_MAX_HTML_CHARACTERS;
  const cache = createFetchedPageCache();
  return defineWorkerTool({
    name: 'web_fetch',
    description:
      'Read a web page or file by URL (http or https). HTML comes back as readable Markdown of the main content, JSON pretty-printed, ' +
      'plain text as is; other types are only described. Long pages come in parts: pass the offset given at the end to continue.',
    schema: webFetchParameters(),
    executionMode: 'parallel',
    isReadOnly: true,
    isDestructive: false,
    timeoutMs: timeoutMs + 5_000,
    describeActivity: (params) => `Fetching ${displayUrl(params.url)}`,
    describeCompletedActivity: (params, result) => {
      if (result.isError === true) return `Could not fetch ${displayUrl(params.url)}`;
      return `Fetched ${displayUrl(params.url)} (${formatBytes(result.details?.size ?? 0)})`;
    },
    execute: async (params, context): Promise<AgentToolResult<WebFetchDetails>> => {
      const offset = params.offset ?? 0;
      // A continuation (offset > 0) reads the page this tool fetched earlier in the turn; offset 0 always fetches.
      let page = offset > 0 ? cache.get(params.url) : undefined;
      const cached = page !== undefined;
      if (page === undefined) {
        try {
          page = await loadPage(params.url, policy, maxHtmlCharacters, context.signal);
        } catch (error) {
          const failure =
            error instanceof WebFetchError
              ? { code: error.code, message: error.message }
              : { code: 'fetch_failed', message: `Could not fetch ${params.url}: ${error instanceof Error ? error.message : String(error)}` };
          return { content: `web_fetch failed (${failure.code}): ${failure.message}`, details: { url: params.url, error: failure }, isError: true };
        }
        if (page.rendered.kind !== 'binary' && page.status < 400) cache.set(page);
      }
      const part = paginateText(page.rendered.text, offset, params.max_length ?? defaultMaxLength);
      const details: WebFetchDetails = {
        url: params.url,
        finalUrl: page.finalUrl,
        redirects: page.redirects,
        status: page.status,
        mediaType: page.rendered.mediaType,
        kind: page.rendered.kind,
        ...(page.rendered.extraction === undefined ? {} : { extraction: page.rendered.extraction }),
        bytes: page.bytes,
        size: page.size,
        truncated: page.truncated,
        ...(page.rendered.htmlCut === undefined ? {} : { htmlCut: page.rendered.htmlCut }),
        cached,
        offset: part.offset,
        end: part.end,
        totalCharacters: part.total,
        ...(part.nextOffset === undefined ? {} : { nextOffset: part.nextOffset }),
      };
      return {
        content: formatFetchedPage(page, part, { requestedOffset: offset, maxBytes: policy.maxBytes }),
        details,
        ...(page.status >= 400 ? { isError: true } : {}),
      };
    },
  });
}

async function loadPage(url: string, policy: FetchPolicy, maxHtmlCharacters: number, signal: AbortSignal): Promise<FetchedPage> {
  const resource = await fetchWebResource(url, policy, signal);
  const rendered = await renderContent({ headers: resource.headers, body: resource.body, bodyRead: resource.bodyRead, url: resource.finalUrl, maxHtmlCharacters });
  return {
    url,
    finalUrl: resource.finalUrl,
    redirects: resource.redirects,
    status: resource.status,
    statusText: resource.statusText,
    rendered,
    bytes: resource.body.length,
    size: resource.bodyRead ? resource.body.length : declaredLength(resource.headers['content-length']),
    truncated: resource.truncated,
  };
}

function declaredLength(value: string | undefined): number {
  const length = Number(value);
  return Number.isFinite(length) && length >= 0 ? length : 0;
}
