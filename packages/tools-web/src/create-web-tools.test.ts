import { describe, expect, test } from 'vitest';
import { createWebTools } from './create-web-tools.js';
import type { WebSearchProvider } from './web-search-provider.js';

const provider: WebSearchProvider = { name: 'stub', search: async () => [] };

describe('createWebTools', () => {
  test('gives no tools without a profile', () => {
    expect(createWebTools()).toEqual([]);
    expect(createWebTools(undefined)).toEqual([]);
  });

  test('gives web_search only when a search provider is bound', () => {
    expect(createWebTools({ search: provider }).map((tool) => tool.name)).toEqual(['web_search']);
    expect(createWebTools({ fetch: false }).map((tool) => tool.name)).toEqual([]);
  });

  test('gives web_fetch only when fetching is enabled', () => {
    expect(createWebTools({ fetch: true }).map((tool) => tool.name)).toEqual(['web_fetch']);
    expect(createWebTools({ fetch: { timeoutMs: 5_000 } }).map((tool) => tool.name)).toEqual(['web_fetch']);
    expect(createWebTools({ search: provider, fetch: true }).map((tool) => tool.name)).toEqual(['web_search', 'web_fetch']);
  });

  test('both tools are read-only and parallel', () => {
    for (const tool of createWebTools({ search: provider, fetch: true })) {
      expect(tool).toMatchObject({ isReadOnly: true, isDestructive: false, executionMode: 'parallel' });
    }
  });
});
