import type { AnyWorkerAgentTool } from '@core/runtime';
import { createWebFetchTool } from './web-fetch-tool.js';
import type { WebProfile } from './web-profile.js';
import { createWebSearchTool } from './web-search-tool.js';

/**
 * The web tools for one turn: none without a profile, `web_search` when a search provider is
 * bound, `web_fetch` when fetching is enabled. Both are read-only and run in parallel.
 * @throws ToolDefinitionError only if a tool definition is broken (a bug, not a configuration problem).
 */
export function createWebTools(profile?: WebProfile): AnyWorkerAgentTool[] {
  if (profile === undefined) return [];
  const tools: AnyWorkerAgentTool[] = [];
  if (profile.search !== undefined) tools.push(createWebSearchTool(profile.search, profile.searchSettings));
  if (profile.fetch !== undefined && profile.fetch !== false) {
    tools.push(createWebFetchTool(profile.fetch === true ? {} : profile.fetch));
  }
  return tools;
}
