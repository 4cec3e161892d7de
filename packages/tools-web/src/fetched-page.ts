import type { RenderedContent } from './render-content.js';

/** A fetched URL after redirects and content handling: what web_fetch pages through. */
export interface FetchedPage {
  /** The URL the model asked for. */
  url: string;
  finalUrl: string;
  redirects: string[];
  status: number;
  statusText: string;
  rendered: RenderedContent;
  /** Bytes of body read (decoded). */
  bytes: number;
  /** The body's size: bytes read, or the declared Content-Length when the body was not read. */
  size: number;
  /** Whether reading stopped at the size cap. */
  truncated: boolean;
}

/** Options of {@link createFetchedPageCache}. */
export interface FetchedPageCacheOptions {
  /** Pages kept (default 8); the least recently used goes first. */
  maxEntries?: number;
  /** How long a page serves continuation calls, in ms (default 10 minutes). */
  maxAgeMs?: number;
  now?: () => number;
}

/** Rendered pages of one web_fetch tool (one turn), so continuing a long page does not fetch and convert it again. */
export interface FetchedPageCache {
  get(url: string): FetchedPage | undefined;
  set(page: FetchedPage): void;
}

/** A small LRU of rendered pages, owned by one tool instance (never shared across turns). */
export function createFetchedPageCache(options: FetchedPageCacheOptions = {}): FetchedPageCache {
  const maxEntries = options.maxEntries ?? 8;
  const maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { page: FetchedPage; storedAt: number }>();
  return {
    get(url) {
      const entry = entries.get(url);
      if (entry === undefined) return undefined;
      entries.delete(url);
      if (now() - entry.storedAt > maxAgeMs) return undefined;
      entries.set(url, entry);
      return entry.page;
    },
    set(page) {
      entries.delete(page.url);
      entries.set(page.url, { page, storedAt: now() });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
    },
  };
}
