import { describe, expect, test } from 'vitest';
import { createFetchedPageCache, type FetchedPage } from './fetched-page.js';

function page(url: string): FetchedPage {
  return { url, finalUrl: url, redirects: [], status: 200, statusText: 'OK', rendered: { kind: 'text', mediaType: 'text/plain', title: undefined, text: url }, bytes: 1, size: 1, truncated: false };
}

describe('createFetchedPageCache', () => {
  test('drops the least recently used page beyond maxEntries', () => {
    const cache = createFetchedPageCache({ maxEntries: 2 });
    cache.set(page('a'));
    cache.set(page('b'));
    cache.get('a');
    cache.set(page('c'));
    expect([cache.get('a')?.url, cache.get('b')?.url, cache.get('c')?.url]).toEqual(['a', undefined, 'c']);
  });

  test('forgets pages older than maxAgeMs', () => {
    let now = 0;
    const cache = createFetchedPageCache({ maxAgeMs: 100, now: () => now });
    cache.set(page('a'));
    now = 101;
    expect(cache.get('a')).toBeUndefined();
  });
});
