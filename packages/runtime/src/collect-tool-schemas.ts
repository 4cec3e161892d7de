import type OpenAI from 'openai';
import { toolKey } from './agent-tool-map.js';
import { TOOL_NAME_PATTERN } from './define-worker-tool.js';
import { ToolSetError } from './errors.js';
import { deepFreeze } from './json.js';
import { toolParameters } from './tool-parameters.js';
import type { AnyWorkerAgentTool } from './worker-agent-tool.js';

/** One entry of the Responses `tools` field. */
export type ResponsesTool = OpenAI.Responses.Tool;

/** A function tool entry (top level or inside a namespace). */
export type FunctionToolParam = OpenAI.Responses.FunctionTool;

/** A namespace entry grouping function tools. */
export type NamespaceToolParam = OpenAI.Responses.NamespaceTool;

/** The client-executed tool search entry. */
export type ToolSearchToolParam = OpenAI.Responses.ToolSearchTool;

/** Options of `collectToolSchemas`. */
export interface CollectToolSchemasOptions {
  /** Description of the client-executed `tool_search` tool added when any tool is deferred. */
  toolSearchDescription?: string;
  /**
   * Append the `tool_search` tool when any tool is deferred (default true). Set false to get only the tools'
   * own entries, e.g. for the `tools` of a `tool_search_output`.
   */
  includeToolSearch?: boolean;
}

/** The default description of the `tool_search` tool. */
export const DEFAULT_TOOL_SEARCH_DESCRIPTION =
  'Search the tools that are available but not loaded yet, by what they do (keywords or a short description). ' +
  'The matching tools become callable. Use it when none of the loaded tools fits the task.';

/*
 * Memo: one frozen function entry per tool object, so a later turn with the same tools only builds arrays.
 */
const functionEntries = new WeakMap<AnyWorkerAgentTool, FunctionToolParam>();

/**
 * The function tool entry of one tool: `{ type: 'function', name, description, parameters, strict }`, plus
 * `defer_loading: true` for a deferred tool. Memoised per tool object and frozen (do not modify it). The namespace
 * is not in the entry: `collectToolSchemas` puts it inside its namespace's entry.
 * @throws ToolDefinitionError when the tool's schema cannot be sent (see `toolParameters`).
 */
export function toFunctionToolParam(tool: AnyWorkerAgentTool): FunctionToolParam {
  const cached = functionEntries.get(tool);
  if (cached !== undefined) return cached;
  const { parameters, strict } = toolParameters(tool);
  const entry: FunctionToolParam = { type: 'function', name: tool.name, description: tool.description, parameters, strict };
  if (tool.deferLoading) entry.defer_loading = true;
  Object.freeze(entry);
  functionEntries.set(tool, entry);
  return entry;
}

/**
 * The client-executed `tool_search` tool: the model calls it with `{ query }` and the loop answers with a
 * `tool_search_output` holding the matching deferred tools.
 */
export function toolSearchToolParam(options: { description?: string } = {}): ToolSearchToolParam {
  return deepFreeze({
    type: 'tool_search',
    execution: 'client',
    description: options.description ?? DEFAULT_TOOL_SEARCH_DESCRIPTION,
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What the needed tool does: keywords or a short description.' },
      },
      required: ['query'],
      additionalProperties: false,
    },
  });
}

/**
 * The value of the Responses `tools` field for a tool set, in assembly order: one function entry per tool
 * (`toFunctionToolParam`), the members of a namespace grouped into one `{ type: 'namespace', name, description,
 * tools }` entry at the place of its first member (description: the first `namespaceDescription` among its
 * members), and, when any tool is deferred, one client-executed `tool_search` tool at the end. Entries are
 * memoised per tool object, so a later turn with the same tools only builds arrays.
 * @throws ToolSetError (`toolNames` = the offending names) on names or namespaces outside `^[a-zA-Z0-9_-]{1,64}$`,
 *   duplicate tools (same namespace and name), or a namespace named like a top-level tool.
 * @throws ToolDefinitionError when a tool's schema cannot be sent.
 */
export function collectToolSchemas(tools: readonly AnyWorkerAgentTool[], options: CollectToolSchemasOptions = {}): ResponsesTool[] {
  checkToolSet(tools);
  const result: ResponsesTool[] = [];
  const namespaces = new Map<string, { entry: NamespaceToolParam; described: boolean }>();
  let deferred = false;
  for (const tool of tools) {
    const entry = toFunctionToolParam(tool);
    if (tool.deferLoading) deferred = true;
    const namespace = tool.namespace;
    if (namespace === undefined) {
      result.push(entry);
      continue;
    }
    let group = namespaces.get(namespace);
    if (group === undefined) {
      group = { entry: { type: 'namespace', name: namespace, description: '', tools: [] }, described: false };
      namespaces.set(namespace, group);
      result.push(group.entry);
    }
    group.entry.tools.push(entry);
    if (!group.described && tool.namespaceDescription !== undefined && tool.namespaceDescription.trim() !== '') {
      group.entry.description = tool.namespaceDescription;
      group.described = true;
    }
  }
  for (const [name, group] of namespaces) {
    if (!group.described) group.entry.description = `Tools of the "${name}" namespace: ${group.entry.tools.map((entry) => entry.name).join(', ')}.`;
  }
  if (deferred && options.includeToolSearch !== false) {
    result.push(toolSearchToolParam(options.toolSearchDescription === undefined ? {} : { description: options.toolSearchDescription }));
  }
  return result;
}

/** Names valid, keys unique, namespaces distinct from top-level names. */
function checkToolSet(tools: readonly AnyWorkerAgentTool[]): void {
  const invalid: string[] = [];
  const seen = new Set<string>();
  const duplicates: string[] = [];
  const topLevel = new Set<string>();
  const namespaceNames = new Set<string>();
  for (const tool of tools) {
    if (typeof tool.name !== 'string' || !TOOL_NAME_PATTERN.test(tool.name)) invalid.push(String(tool.name));
    if (tool.namespace !== undefined && (typeof tool.namespace !== 'string' || !TOOL_NAME_PATTERN.test(tool.namespace))) {
      invalid.push(`${String(tool.namespace)} (namespace of ${String(tool.name)})`);
    }
    const key = toolKey(tool);
    if (seen.has(key)) {
      if (!duplicates.includes(key)) duplicates.push(key);
    } else seen.add(key);
    if (tool.namespace === undefined) topLevel.add(tool.name);
    else namespaceNames.add(tool.namespace);
  }
  if (invalid.length > 0) {
    throw new ToolSetError(
      `Invalid tool or namespace names: ${invalid.join(', ')}. Names must match ${TOOL_NAME_PATTERN} (letters, digits, "_" and "-", 1 to 64 characters).`,
      invalid,
    );
  }
  if (duplicates.length > 0) {
    throw new ToolSetError(
      `Duplicate tools in the tool set: ${duplicates.join(', ')}. Each tool needs a distinct name within its namespace; drop or rename one of each pair.`,
      duplicates,
    );
  }
  const clashes = [...namespaceNames].filter((name) => topLevel.has(name));
  if (clashes.length > 0) {
    throw new ToolSetError(
      `Namespaces named like top-level tools: ${clashes.join(', ')}. Rename the namespace or the tool so the model can tell them apart.`,
      clashes,
    );
  }
}
