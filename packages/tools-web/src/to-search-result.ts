import { normaliseDate } from './normalise-date.js';
import { plainText } from './plain-text.js';
import type { WebSearchResult } from './web-search-provider.js';

/**
 * One provider hit as a {@link WebSearchResult}: markup and entities stripped from the title and
 * snippet (an empty title falls back to the URL), the first parseable date as `YYYY-MM-DD`.
 */
export function toSearchResult(hit: { title: string | null | undefined; url: string; snippet: string | null | undefined; dates: Array<string | null | undefined> }): WebSearchResult {
  const published = hit.dates.map(normaliseDate).find((date) => date !== undefined);
  return {
    title: plainText(hit.title ?? '') || hit.url,
    url: hit.url,
    snippet: plainText(hit.snippet ?? ''),
    ...(published === undefined ? {} : { published }),
  };
}
