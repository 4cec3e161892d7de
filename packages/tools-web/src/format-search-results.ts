import { truncateText } from './plain-text.js';
import type { WebSearchResult } from './web-search-provider.js';

/** Longest title and snippet shown to the model, in characters. */
const TITLE_MAX = 200;
const SNIPPET_MAX = 400;

/**
 * The compact, numbered list the model reads:
 *
 *     1. Title
 *        https://example.com/page · 2025-01-15
 *        Snippet…
 */
export function formatSearchResults(query: string, provider: string, results: WebSearchResult[]): string {
  if (results.length === 0) return `No web results for ${JSON.stringify(query)} (${provider}). Try other words.`;
  const lines = [`Web results for ${JSON.stringify(query)} (${provider}, ${results.length}):`];
  results.forEach((result, index) => {
    lines.push('');
    lines.push(`${index + 1}. ${truncateText(result.title, TITLE_MAX) || '(untitled)'}`);
    lines.push(`   ${result.url}${result.published === undefined ? '' : ` · ${result.published}`}`);
    if (result.snippet !== '') lines.push(`   ${truncateText(result.snippet, SNIPPET_MAX)}`);
  });
  return lines.join('\n');
}
