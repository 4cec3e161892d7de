import type { FetchedPage } from './fetched-page.js';
import type { TextPage } from './paginate-text.js';
import { formatBytes } from './plain-text.js';

/**
 * What the model reads for one part of a fetched page: a header (URL, redirects, HTTP error, title,
 * site, byline, date, type and size), the text, and a line saying how to continue when more is left.
 */
export function formatFetchedPage(page: FetchedPage, part: TextPage, options: { requestedOffset: number; maxBytes: number }): string {
  const { rendered } = page;
  const header: string[] = [];
  header.push(page.redirects.length > 0 ? `URL: ${page.finalUrl} (redirected from ${page.url})` : `URL: ${page.finalUrl}`);
  if (page.status >= 400) header.push(`HTTP ${page.status} ${page.statusText}`.trimEnd());
  if (rendered.title !== undefined) header.push(`Title: ${rendered.title}`);
  if (rendered.siteName !== undefined && rendered.siteName !== rendered.title) header.push(`Site: ${rendered.siteName}`);
  if (rendered.byline !== undefined) header.push(`Byline: ${rendered.byline}`);
  if (rendered.publishedTime !== undefined) header.push(`Published: ${rendered.publishedTime}`);
  const sizeNote = page.truncated ? `, cut at the ${formatBytes(options.maxBytes)} size limit` : '';
  header.push(`Content-Type: ${rendered.mediaType} (${formatBytes(page.size)}${sizeNote})`);
  if (rendered.htmlCut !== undefined) {
    const { converted, total } = rendered.htmlCut;
    header.push(`Note: only the first ${formatBytes(converted)} of this page's ${formatBytes(total)} of HTML (scripts and styles aside) were converted; the rest of the page is left out.`);
  }

  let body: string;
  let footer = '';
  if (rendered.kind === 'binary') {
    body = rendered.text;
  } else if (part.total === 0) {
    body = '(The page has no readable text.)';
  } else if (part.text === '') {
    body = `(Offset ${options.requestedOffset} is past the end: the content has ${part.total} characters.)`;
  } else {
    body = part.text;
    if (part.nextOffset !== undefined) {
      footer = `\n\n[Showing characters ${part.offset}-${part.end} of ${part.total}. To continue, call web_fetch with url ${JSON.stringify(page.url)} and offset ${part.nextOffset}.]`;
    } else if (part.offset > 0) {
      footer = `\n\n[End of content: characters ${part.offset}-${part.end} of ${part.total}.]`;
    }
  }
  return `${header.join('\n')}\n\n${body}${footer}`;
}
