import type { IncomingHttpHeaders } from 'node:http';
import { parseJson } from './parse-json.js';
import { formatBytes } from './plain-text.js';

/** What a fetched body became for the model. */
export interface RenderedContent {
  /** How it was handled. */
  kind: 'html' | 'json' | 'text' | 'binary';
  /** The media type (from Content-Type, or sniffed). */
  mediaType: string;
  title: string | undefined;
  /** For HTML articles: the author line and publication time, when found. */
  byline?: string;
  publishedTime?: string;
  /** For HTML: the site's name, when the page gives it. */
  siteName?: string;
  /** The text the model reads (Markdown for HTML). */
  text: string;
  /** For HTML: whether Readability found an article or the whole page was converted. */
  extraction?: 'article' | 'page';
  /** For HTML cut before conversion: characters of HTML converted, and how many there were (scripts and styles aside). */
  htmlCut?: { converted: number; total: number };
}

/** The media type of a Content-Type header (`text/html`), or undefined. */
export function mediaTypeOf(headers: IncomingHttpHeaders): string | undefined {
  const value = headers['content-type'];
  if (value === undefined) return undefined;
  const type = value.split(';')[0]?.trim().toLowerCase();
  return type === '' ? undefined : type;
}

/** Whether a media type is text web_fetch can read (HTML, JSON, XML, text/*); unknown types are read and sniffed. */
export function isReadableMediaType(mediaType: string | undefined): boolean {
  if (mediaType === undefined) return true;
  return (
    mediaType.startsWith('text/') ||
    isHtml(mediaType) ||
    isJson(mediaType) ||
    mediaType.endsWith('+xml') ||
    mediaType === 'application/xml' ||
    mediaType === 'application/javascript' ||
    mediaType === 'application/x-javascript' ||
    mediaType === 'application/ecmascript' ||
    mediaType === 'application/x-ndjson' ||
    mediaType === 'application/yaml' ||
    mediaType === 'application/x-yaml' ||
    mediaType === 'application/toml'
  );
}

/**
 * Turns a fetched body into what the model reads: HTML → readable Markdown (only its first
 * `maxHtmlCharacters` converted, see {@link htmlToMarkdownYielding}, with the event loop given a turn
 * between its stages), JSON → pretty-printed, text → as is; anything else (or a body that looks binary)
 * → a one-line description, not the bytes.
 */
export async function renderContent(options: { headers: IncomingHttpHeaders; body: Buffer; bodyRead: boolean; url: string; maxHtmlCharacters?: number }): Promise<RenderedContent> {
  const { headers, body, url } = options;
  const declared = mediaTypeOf(headers);
  if (!options.bodyRead || !isReadableMediaType(declared) || looksBinary(body)) {
    const mediaType = declared ?? 'application/octet-stream';
    return { kind: 'binary', mediaType, title: undefined, text: describeBinary(mediaType, headers, body, options.bodyRead) };
  }
  const text = decodeBody(body, headers['content-type'], declared === undefined || isHtml(declared));
  const mediaType = declared ?? (/^\s*(<!doctype html|<html|<head|<body)/i.test(text) ? 'text/html' : 'text/plain');
  if (isHtml(mediaType)) {
    // The DOM parser, Readability and Turndown are loaded at the first HTML page, not with the tool.
    const { htmlToMarkdownYielding } = await import('./html-to-markdown.js');
    const converted = await htmlToMarkdownYielding(text, url, options.maxHtmlCharacters === undefined ? {} : { maxHtmlCharacters: options.maxHtmlCharacters });
    return {
      kind: 'html',
      mediaType,
      title: converted.title,
      ...(converted.byline === undefined ? {} : { byline: converted.byline }),
      ...(converted.publishedTime === undefined ? {} : { publishedTime: converted.publishedTime }),
      ...(converted.siteName === undefined ? {} : { siteName: converted.siteName }),
      text: converted.markdown,
      extraction: converted.extraction,
      ...(converted.convertedLength === undefined ? {} : { htmlCut: { converted: converted.convertedLength, total: converted.htmlLength } }),
    };
  }
  if (isJson(mediaType)) {
    const parsed = parseJson(text);
    return { kind: 'json', mediaType, title: undefined, text: parsed.ok ? JSON.stringify(parsed.value, null, 2) : text };
  }
  return { kind: 'text', mediaType, title: undefined, text };
}

function isHtml(mediaType: string): boolean {
  return mediaType === 'text/html' || mediaType === 'application/xhtml+xml';
}

function isJson(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/** NUL bytes or many control characters in the first 1 KB mean binary. */
function looksBinary(body: Buffer): boolean {
  const sample = body.subarray(0, 1024);
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 9 || (byte > 13 && byte < 32)) control += 1;
  }
  return sample.length > 0 && control / sample.length > 0.1;
}

function describeBinary(mediaType: string, headers: IncomingHttpHeaders, body: Buffer, bodyRead: boolean): string {
  const length = Number(headers['content-length']);
  const size = Number.isFinite(length) && length >= 0 ? formatBytes(length) : bodyRead ? formatBytes(body.length) : 'unknown size';
  return `Binary content (${mediaType}, ${size}) was not included: web_fetch returns HTML pages as Markdown, JSON and plain text only.`;
}

function decodeBody(body: Buffer, contentType: string | undefined, sniffMeta: boolean): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '')?.[1] ?? (sniffMeta ? metaCharset(body) : undefined);
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 2048).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
}
