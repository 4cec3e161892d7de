import type OpenAI from 'openai';
import { toFunctionToolParam, type FunctionToolParam } from '../schema/collect-tool-schemas.js';
import { toolKey } from '../tool/agent-tool-map.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';

/** A `tool_search_call` item as the model returned it. */
export type ToolSearchCallItem = OpenAI.Responses.ResponseToolSearchCall;

/** The `tool_search_output` item sent back for a client-executed tool search. */
export type ToolSearchOutputItem = OpenAI.Responses.ResponseToolSearchOutputItemParam;

/** Options of `answerToolSearch`. */
export interface AnswerToolSearchOptions {
  /** Most tools returned (default 5). */
  limit?: number;
}

/** The answer to one tool search: the item to send back, and what was found. */
export interface ToolSearchAnswer {
  output: ToolSearchOutputItem;
  query: string;
  /** The loaded tools, as the model calls them (`namespace.name` for namespaced tools). */
  toolNames: string[];
}

/** How many tools a search returns when no limit is given. */
export const DEFAULT_TOOL_SEARCH_LIMIT = 5;

const NAME_WEIGHT = 3;
const NAMESPACE_WEIGHT = 2;
const DESCRIPTION_WEIGHT = 1;

/**
 * Answers a client-executed `tool_search_call` from the deferred tools (`deferLoading`) among `tools` (the
 * turn's tool set): the query is matched
 * against each tool's name, namespace and descriptions (word matches, names weigh most), and the best `limit`
 * tools are returned as `toFunctionToolParam` entries, namespaced ones inside their `namespace` entry.
 * A query that matches nothing gets an empty `tools` list. Never throws for a malformed call.
 */
export function answerToolSearch(
  call: Pick<ToolSearchCallItem, 'call_id' | 'arguments'>,
  tools: readonly AnyWorkerAgentTool[],
  options: AnswerToolSearchOptions = {},
): ToolSearchAnswer {
  const deferredTools = tools.filter((tool) => tool.deferLoading);
  const query = searchQuery(call.arguments);
  const limit = options.limit !== undefined && options.limit >= 1 ? Math.floor(options.limit) : DEFAULT_TOOL_SEARCH_LIMIT;
  const terms = [...new Set(words(query))];
  const scored: { tool: AnyWorkerAgentTool; score: number; order: number }[] = [];
  deferredTools.forEach((tool, order) => {
    const score = scoreTool(tool, terms, query);
    if (score > 0) scored.push({ tool, score, order });
  });
  scored.sort((left, right) => right.score - left.score || left.order - right.order);
  const chosen = scored.slice(0, limit).map((entry) => entry.tool);
  const output: ToolSearchOutputItem = {
    type: 'tool_search_output',
    execution: 'client',
    tools: groupByNamespace(chosen, tools),
  };
  if (typeof call.call_id === 'string') output.call_id = call.call_id;
  const toolNames = chosen.map(toolKey);
  return { output, query, toolNames };
}

/** The query of a tool search call: `arguments.query` (or the first string field), or the arguments themselves when a string. */
function searchQuery(args: unknown): string {
  if (typeof args === 'string') {
    try {
      return searchQuery(JSON.parse(args) as unknown);
    } catch {
      return args;
    }
  }
  if (typeof args !== 'object' || args === null) return '';
  const record = args as Record<string, unknown>;
  if (typeof record.query === 'string') return record.query;
  if (Array.isArray(record.queries)) return record.queries.filter((value) => typeof value === 'string').join(' ');
  for (const value of Object.values(record)) if (typeof value === 'string') return value;
  return '';
}

/** Lower-case words of a text, splitting snake_case, kebab-case and camelCase. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1);
}

function scoreTool(tool: AnyWorkerAgentTool, terms: readonly string[], query: string): number {
  const key = toolKey(tool);
  const trimmed = query.trim().toLowerCase();
  if (trimmed === tool.name.toLowerCase() || trimmed === key.toLowerCase()) return 1000;
  if (terms.length === 0) return 0;
  const fields: [Set<string>, number][] = [
    [new Set(words(tool.name)), NAME_WEIGHT],
    [new Set(words(tool.namespace ?? '')), NAMESPACE_WEIGHT],
    [new Set([...words(tool.description), ...words(tool.namespaceDescription ?? '')]), DESCRIPTION_WEIGHT],
  ];
  let score = 0;
  for (const term of terms) {
    let best = 0;
    for (const [fieldWords, weight] of fields) {
      if (fieldWords.has(term)) best = Math.max(best, weight);
      else if (term.length >= 3 && [...fieldWords].some((word) => word.startsWith(term) || (word.length >= 3 && term.startsWith(word)))) {
        best = Math.max(best, weight / 2);
      }
    }
    score += best;
  }
  return score;
}

/** Top-level function entries and one namespace entry per namespace (at its first chosen member's place). */
function groupByNamespace(chosen: readonly AnyWorkerAgentTool[], allTools: readonly AnyWorkerAgentTool[]): ToolSearchOutputItem['tools'] {
  const result: ToolSearchOutputItem['tools'] = [];
  const namespaces = new Map<string, { type: 'namespace'; name: string; description: string; tools: FunctionToolParam[] }>();
  for (const tool of chosen) {
    const entry = toFunctionToolParam(tool);
    if (tool.namespace === undefined) {
      result.push(entry);
      continue;
    }
    let group = namespaces.get(tool.namespace);
    if (group === undefined) {
      group = { type: 'namespace', name: tool.namespace, description: namespaceDescription(tool.namespace, allTools), tools: [] };
      namespaces.set(tool.namespace, group);
      result.push(group as ToolSearchOutputItem['tools'][number]);
    }
    group.tools.push(entry);
  }
  return result;
}

function namespaceDescription(namespace: string, tools: readonly AnyWorkerAgentTool[]): string {
  for (const tool of tools) {
    if (tool.namespace === namespace && tool.namespaceDescription !== undefined && tool.namespaceDescription.trim() !== '') {
      return tool.namespaceDescription;
    }
  }
  // The same fallback as collectToolSchemas, so the model sees one description per namespace.
  const members = tools.filter((tool) => tool.namespace === namespace).map((tool) => tool.name);
  return `Tools of the "${namespace}" namespace: ${members.join(', ')}.`;
}
