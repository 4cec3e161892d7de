import { defineWorkerTool, type AgentToolResult, type PresentationEvent, type WorkerAgentTool } from '@core/runtime';
import { z } from 'zod';
import { WebSearchError } from './errors.js';
import { formatSearchResults } from './format-search-results.js';
import { truncateText } from './plain-text.js';
import type { WebSearchProvider, WebSearchResult } from './web-search-provider.js';
import { lazySchema } from './lazy-schema.js';

/** Settings of the web_search tool. */
export interface WebSearchSettings {
  /** Results asked for when the model gives no `count` (default 8). */
  defaultCount?: number;
  /** The largest `count` the model may ask for (default 20). */
  maxCount?: number;
  /** The whole call's deadline in ms, retries included (default 20_000). */
  timeoutMs?: number;
}

/** What web_search records for logs and UIs. */
export interface WebSearchDetails {
  provider: string;
  query: string;
  results: WebSearchResult[];
  /** Set when the search failed. */
  error?: { code: string; status: number | undefined; message: string };
}

const webSearchParameters = lazySchema(() =>
  z.object({
    query: z.string().trim().min(1).max(400).describe('What to search for, as you would type it into a search engine.'),
    count: z.number().int().min(1).max(20).optional().describe('How many results to return (default 8).'),
  }),
);

/** The web_search tool's validated parameters. */
export type WebSearchParams = z.output<ReturnType<typeof webSearchParameters>>;

/**
 * Builds the web_search tool on a provider. The model reads a numbered list; a UI gets the same results as a
 * `links` presentation event. Failures (auth, quota, rate limits after retries,
 * provider errors, timeouts) come back as error results the model reads; `execute` never throws.
 */
export function createWebSearchTool(provider: WebSearchProvider, settings: WebSearchSettings = {}): WorkerAgentTool<WebSearchParams, WebSearchDetails> {
  const maxCount = Math.min(20, Math.max(1, settings.maxCount ?? 20));
  const defaultCount = Math.min(maxCount, Math.max(1, settings.defaultCount ?? 8));
  const timeoutMs = settings.timeoutMs ?? 20_000;
  return defineWorkerTool({
    name: 'web_search',
    description:
      'Search the web. Returns a numbered list of results with title, URL, a short snippet and a date when known. ' +
      'Use it for current or external information; then read a promising result with web_fetch.',
    schema: webSearchParameters(),
    executionMode: 'parallel',
    isReadOnly: true,
    isDestructive: false,
    timeoutMs: timeoutMs + 5_000,
    describeActivity: (params) => `Searching the web for ${quoted(params.query)}`,
    describeCompletedActivity: (params, result) => {
      if (result.isError === true) return `Web search failed for ${quoted(params.query)}`;
      const count = result.details?.results.length ?? 0;
      return `Found ${count} result${count === 1 ? '' : 's'} for ${quoted(params.query)}`;
    },
    execute: async (params, context): Promise<AgentToolResult<WebSearchDetails>> => {
      const count = Math.min(params.count ?? defaultCount, maxCount);
      const signal = AbortSignal.any([context.signal, AbortSignal.timeout(timeoutMs)]);
      try {
        const results = await provider.search(params.query, { count, signal, deadline: Date.now() + timeoutMs });
        return {
          content: formatSearchResults(params.query, provider.name, results),
          details: { provider: provider.name, query: params.query, results },
          ...(results.length === 0 ? {} : { presentation: [searchLinks(results)] }),
        };
      } catch (error) {
        const failure =
          error instanceof WebSearchError
            ? { code: error.code, status: error.status, message: error.message }
            : { code: 'search_failed', status: undefined, message: `The ${provider.name} search failed: ${error instanceof Error ? error.message : String(error)}` };
        return {
          content: `Web search failed (${failure.code}): ${failure.message}`,
          details: { provider: provider.name, query: params.query, results: [], error: failure },
          isError: true,
        };
      }
    },
  });
}

/**
 * The results as a presentation event a UI shows as links (`{ kind: 'links', links: [{ title, url }] }`);
 * the model reads the numbered list instead.
 */
function searchLinks(results: WebSearchResult[]): PresentationEvent {
  return { kind: 'links', links: results.map(({ title, url }) => ({ title, url })) };
}

function quoted(query: string): string {
  return `"${truncateText(query, 60)}"`;
}
