import { decodeHtmlEntities } from './decode-html-entities.js';

/** Turns a provider's snippet (which may hold `<strong>` tags and HTML entities) into one line of plain text. */
export function plainText(value: string): string {
  return decodeHtmlEntities(value.replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();
}

/** Cuts text to at most `max` characters, ending with `…` when cut. */
export function truncateText(value: string, max: number): string {
  if (value.length <= max) return value;
  return `${value.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** A size for people: `512 B`, `12 KB`, `3.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A URL for labels: host and path without the scheme, query or trailing slash (`example.com/page`). */
export function displayUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return truncateText(value, 80);
  }
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return truncateText(`${url.host}${path}`, 80);
}
