import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { ResolvedAddress } from './vet-host.js';

/** One HTTP response, its body read up to the size cap. */
export interface RawResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  /** The decoded body (empty when not read). */
  body: Buffer;
  /** Whether reading stopped at the size cap. */
  truncated: boolean;
  /** Whether the body was read at all (see `readBody`). */
  bodyRead: boolean;
}

/** Options of {@link requestOnce}. */
export interface RequestOnceOptions {
  signal: AbortSignal;
  /** Stop reading the (decoded) body after this many bytes. */
  maxBytes: number;
  userAgent: string;
  /** Whether to read the body of a final (non-redirect) response, given its headers. */
  readBody: (headers: IncomingHttpHeaders) => boolean;
  /** Trusted CA certificates for https (default: Node's bundled roots). */
  ca?: string[];
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * One GET to `url`, connecting only to `address` (the vetted one: a custom `lookup` pins it, so the
 * name cannot resolve to something else between the check and the connection). Redirects are not
 * followed; the body is streamed, decompressed and cut at `maxBytes`.
 * Rejects with the network error (or the abort reason) when the request fails.
 */
export async function requestOnce(url: URL, address: ResolvedAddress, options: RequestOnceOptions): Promise<RawResponse> {
  const pinnedLookup = ((_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (lookupOptions.all === true) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  }) as unknown as LookupFunction;
  const requestOptions: RequestOptions = {
    protocol: url.protocol,
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method: 'GET',
    headers: {
      'User-Agent': options.userAgent,
      Accept: 'text/html,application/xhtml+xml,application/json;q=0.9,text/plain;q=0.8,*/*;q=0.5',
      'Accept-Encoding': 'gzip, deflate, br',
    },
    lookup: pinnedLookup,
    agent: false,
    signal: options.signal,
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  };
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(requestOptions, resolve);
    request.on('error', reject);
    request.end();
  });
  try {
    const status = response.statusCode ?? 0;
    const isRedirect = REDIRECT_STATUSES.has(status) && response.headers.location !== undefined;
    if (isRedirect || !options.readBody(response.headers)) {
      return { status, statusText: response.statusMessage ?? '', headers: response.headers, body: Buffer.alloc(0), truncated: false, bodyRead: false };
    }
    const { body, truncated } = await readCapped(response, options.maxBytes);
    return { status, statusText: response.statusMessage ?? '', headers: response.headers, body, truncated, bodyRead: true };
  } finally {
    response.destroy();
  }
}

async function readCapped(response: IncomingMessage, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const decoder = decoderFor(response.headers['content-encoding']);
  let source: Readable = response;
  if (decoder !== undefined) {
    response.on('error', (error) => decoder.destroy(error));
    source = response.pipe(decoder);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  let truncated = false;
  try {
    for await (const chunk of source) {
      const buffer = chunk as Buffer;
      const room = maxBytes - total;
      if (buffer.length > room) {
        chunks.push(buffer.subarray(0, room));
        total += room;
        truncated = true;
        break;
      }
      chunks.push(buffer);
      total += buffer.length;
    }
  } finally {
    decoder?.destroy();
  }
  return { body: Buffer.concat(chunks, total), truncated };
}

function decoderFor(encoding: string | undefined): Readable & NodeJS.WritableStream | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}
