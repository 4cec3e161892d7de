import type { IncomingHttpHeaders } from 'node:http';
import { WebFetchError } from './errors.js';
import { requestOnce, type RawResponse } from './request-once.js';
import { isTimeout } from './send-provider-request.js';
import { vetHost, type HostLookup } from './vet-host.js';

/** The limits and safety settings of one fetch, defaults filled in. */
export interface FetchPolicy {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  allowHosts: ReadonlySet<string>;
  lookup: HostLookup;
  userAgent: string;
  /** Whether to read a final response's body, given its headers (binary types are described, not read). */
  readBody: (headers: IncomingHttpHeaders) => boolean;
  /** Trusted CA certificates for https (default: Node's bundled roots). */
  ca?: string[];
}

/** A fetched resource: the final response after redirects, its body cut at the size cap. */
export interface FetchedResource extends RawResponse {
  /** The URL asked for. */
  url: string;
  /** The URL that answered (after redirects). */
  finalUrl: string;
  /** Every redirect target, in order. */
  redirects: string[];
}

/**
 * GETs an http(s) URL: checks the host (after DNS resolution) before every hop, pins the
 * connection to a checked address (the next one when connecting to it fails), follows up to `maxRedirects` redirects, and stops at
 * the timeout (`signal` aborts it too).
 * @throws WebFetchError (`fetch_url_invalid`, `fetch_blocked`, `fetch_dns_failed`, `fetch_too_many_redirects`, `fetch_timeout`, `fetch_aborted`, `fetch_failed`).
 */
export async function fetchWebResource(url: string, policy: FetchPolicy, signal: AbortSignal): Promise<FetchedResource> {
  let current = parseFetchUrl(url, url);
  const combined = AbortSignal.any([signal, AbortSignal.timeout(policy.timeoutMs)]);
  const redirects: string[] = [];
  for (;;) {
    const addresses = (await withAbort(vetHost(current, policy), combined, current, policy.timeoutMs)).slice(0, MAX_ADDRESSES_TRIED);
    let response: RawResponse | undefined;
    for (const [index, address] of addresses.entries()) {
      try {
        response = await requestOnce(current, address, {
          signal: combined,
          maxBytes: policy.maxBytes,
          userAgent: policy.userAgent,
          readBody: policy.readBody,
          ...(policy.ca === undefined ? {} : { ca: policy.ca }),
        });
        break;
      } catch (error) {
        // A host with several addresses (often IPv6 and IPv4) may not be reachable on the first: try the next vetted one.
        if (index < addresses.length - 1 && !combined.aborted && isConnectFailure(error)) continue;
        throw failure(error, combined, current, policy.timeoutMs);
      }
    }
    if (response === undefined) throw new WebFetchError('fetch_dns_failed', current.href, `${current.hostname} has no addresses. Check the URL.`);
    const location = response.headers.location;
    if ([301, 302, 303, 307, 308].includes(response.status) && location !== undefined) {
      if (redirects.length >= policy.maxRedirects) {
        throw new WebFetchError('fetch_too_many_redirects', current.href, `Stopped after ${policy.maxRedirects} redirects (the last one from ${current.href} to ${location}). The page redirects too often or in a loop.`);
      }
      current = parseFetchUrl(new URL(location, current).href, current.href);
      redirects.push(current.href);
      continue;
    }
    return { url, finalUrl: current.href, redirects, ...response };
  }
}

/** Addresses of one host tried in turn when connecting fails. */
const MAX_ADDRESSES_TRIED = 4;
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENETUNREACH', 'EHOSTUNREACH', 'EADDRNOTAVAIL', 'EAFNOSUPPORT']);

function isConnectFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONNECT_FAILURES.has(code);
}

function parseFetchUrl(value: string, from: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch (error) {
    throw new WebFetchError('fetch_url_invalid', value, `${JSON.stringify(value)} is not a valid URL. Pass an absolute http:// or https:// URL.`, { cause: error });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    const where = value === from ? '' : ` (redirect from ${from})`;
    throw new WebFetchError('fetch_blocked', value, `Refused to fetch ${parsed.href}${where}: only http and https URLs are fetched.`);
  }
  return parsed;
}

async function withAbort<T>(promise: Promise<T>, signal: AbortSignal, url: URL, timeoutMs: number): Promise<T> {
  if (signal.aborted) throw failure(signal.reason, signal, url, timeoutMs);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(failure(signal.reason, signal, url, timeoutMs));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

function failure(error: unknown, signal: AbortSignal, url: URL, timeoutMs: number): WebFetchError {
  if (error instanceof WebFetchError) return error;
  if (signal.aborted) {
    if (isTimeout(signal.reason)) {
      return new WebFetchError('fetch_timeout', url.href, `${url.href} did not finish within ${formatSeconds(timeoutMs)}; the server is too slow or not answering.`, { cause: error });
    }
    return new WebFetchError('fetch_aborted', url.href, `Fetching ${url.href} was cancelled.`, { cause: error });
  }
  const code = (error as { code?: unknown } | null)?.code;
  const detail = error instanceof Error ? error.message : String(error);
  return new WebFetchError('fetch_failed', url.href, `Could not fetch ${url.href}: ${typeof code === 'string' ? `${code}, ` : ''}${detail}.`, { cause: error });
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
