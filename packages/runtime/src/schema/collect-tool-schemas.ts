import type OpenAI from 'openai';
import { toolKey } from '../tool/agent-tool-map.js';
import { TOOL_NAME_PATTERN } from '../tool/define-worker-tool.js';
import { ToolSetError } from '../errors.js';
import { deepFreeze } from '../json.js';
import { toolParameters } from './tool-parameters.js';
import { samePayload, toolPayloadSnapshot, type ToolPayloadSnapshot } from './tool-payload-snapshot.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';

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
 * Memos: one frozen function entry per tool object, and a few collected values per first tool of a tools array
 * (checked against the array's elements and the options on every use, so a new array of the same tools also finds
 * its value). Both are kept with what they were made of when a tool could change (see `toolPayloadSnapshot`; tools
 * made by `defineWorkerTool` are frozen and cannot).
 */
const functionEntries = new WeakMap<AnyWorkerAgentTool, FunctionEntry>();
const collections = new WeakMap<AnyWorkerAgentTool, Collection[]>();

/** Tool sets kept per first tool (agents sharing a first tool, or one changing its set, each find theirs). */
const MAX_COLLECTIONS_PER_FIRST_TOOL = 4;

interface FunctionEntry {
  entry: FunctionToolParam;
  snapshot: ToolPayloadSnapshot;
  /** The tool's name and namespace (when it has one) match `TOOL_NAME_PATTERN`. */
  validNames: boolean;
}

/** A collected `tools` value, private (each caller gets a copy), and what it was collected from. */
interface Collection {
  tools: readonly AnyWorkerAgentTool[];
  snapshots: readonly ToolPayloadSnapshot[] | undefined;
  toolSearchDescription: string | undefined;
  includeToolSearch: boolean;
  value: readonly ResponsesTool[];
}

/**
 * The function tool entry of one tool: `{ type: 'function', name, description, parameters, strict }`, plus
 * `defer_loading: true` for a deferred tool. Memoised per tool object and frozen (do not modify it). The namespace
 * is not in the entry: `collectToolSchemas` puts it inside its namespace's entry.
 * @throws ToolDefinitionError when the tool's schema cannot be sent (see `toolParameters`).
 */
export function toFunctionToolParam(tool: AnyWorkerAgentTool): FunctionToolParam {
  return functionEntry(tool).entry;
}

function functionEntry(tool: AnyWorkerAgentTool): FunctionEntry {
  const cached = functionEntries.get(tool);
  if (cached !== undefined && samePayload(tool, cached.snapshot)) return cached;
  const snapshot = toolPayloadSnapshot(tool);
  const { parameters, strict } = toolParameters(tool);
  const entry: FunctionToolParam = { type: 'function', name: tool.name, description: tool.description, parameters, strict };
  if (tool.deferLoading) entry.defer_loading = true;
  Object.freeze(entry);
  const made = { entry, snapshot, validNames: isValidName(tool.name) && (tool.namespace === undefined || isValidName(tool.namespace)) };
  functionEntries.set(tool, made);
  return made;
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
 * memoised per tool object, and the whole value per set of tools: a later turn with the same (unchanged) tools in
 * the same order, in the same array or a new one, only copies the array and the namespace entries.
 * @throws ToolSetError (`toolNames` = the offending names) on names or namespaces outside `^[a-zA-Z0-9_-]{1,64}$`,
 *   duplicate tools (same namespace and name), or a namespace named like a top-level tool.
 * @throws ToolDefinitionError when a tool's schema cannot be sent.
 */
export function collectToolSchemas(tools: readonly AnyWorkerAgentTool[], options: CollectToolSchemasOptions = {}): ResponsesTool[] {
  const includeToolSearch = options.includeToolSearch !== false;
  const first = tools[0];
  if (typeof first !== 'object' || first === null) return collect(tools, options, undefined);
  const known = collections.get(first);
  if (known !== undefined) {
    for (const collection of known) {
      if (sameCollection(collection, tools, options.toolSearchDescription, includeToolSearch)) return copyOf(collection.value);
    }
  }
  const snapshots: ToolPayloadSnapshot[] = [];
  const value = collect(tools, options, snapshots);
  const collection: Collection = {
    tools: [...tools],
    snapshots: snapshots.every((snapshot) => snapshot === undefined) ? undefined : snapshots,
    toolSearchDescription: options.toolSearchDescription,
    includeToolSearch,
    value,
  };
  collections.set(first, known === undefined ? [collection] : [collection, ...known.slice(0, MAX_COLLECTIONS_PER_FIRST_TOOL - 1)]);
  return copyOf(value);
}

/** Whether `tools` still holds the same tools, unchanged, as when `collection` was made, for the same options. */
function sameCollection(
  collection: Collection,
  tools: readonly AnyWorkerAgentTool[],
  toolSearchDescription: string | undefined,
  includeToolSearch: boolean,
): boolean {
  if (collection.includeToolSearch !== includeToolSearch || collection.toolSearchDescription !== toolSearchDescription) return false;
  const known = collection.tools;
  // The last tool first: sets sharing their first tool (and often more) tend to differ at the end.
  if (known.length !== tools.length || known[known.length - 1] !== tools[tools.length - 1]) return false;
  for (let index = 0; index < known.length; index += 1) if (known[index] !== tools[index]) return false;
  const snapshots = collection.snapshots;
  if (snapshots !== undefined) {
    for (let index = 0; index < known.length; index += 1) if (!samePayload(known[index] as AnyWorkerAgentTool, snapshots[index])) return false;
  }
  return true;
}

/** A copy the caller may change: a new array, and new namespace entries (the function and tool_search entries are frozen). */
function copyOf(value: readonly ResponsesTool[]): ResponsesTool[] {
  const copy = value.slice();
  for (let index = 0; index < copy.length; index += 1) {
    const entry = copy[index] as ResponsesTool;
    if (entry.type === 'namespace') copy[index] = { type: 'namespace', name: entry.name, description: entry.description, tools: entry.tools.slice() };
  }
  return copy;
}

/** The value for `tools`, new; `snapshots`, when given, receives each tool's payload snapshot in order. */
function collect(tools: readonly AnyWorkerAgentTool[], options: CollectToolSchemasOptions, snapshots: ToolPayloadSnapshot[] | undefined): ResponsesTool[] {
  const result: ResponsesTool[] = [];
  const namespaces = new Map<string, NamespaceGroup>();
  const topLevel = new Set<string>();
  let invalid: string[] | undefined;
  let duplicates: string[] | undefined;
  let deferred = false;
  for (const tool of tools) {
    const made = functionEntry(tool);
    snapshots?.push(made.snapshot);
    const { name, namespace } = tool;
    if (!made.validNames) {
      if (!isValidName(name)) (invalid ??= []).push(String(name));
      if (namespace !== undefined && !isValidName(namespace)) (invalid ??= []).push(`${String(namespace)} (namespace of ${String(name)})`);
    }
    if (tool.deferLoading) deferred = true;
    if (namespace === undefined) {
      if (topLevel.has(name)) (duplicates ??= []).push(name);
      topLevel.add(name);
      result.push(made.entry);
      continue;
    }
    let group = namespaces.get(namespace);
    if (group === undefined) {
      group = { entry: { type: 'namespace', name: namespace, description: '', tools: [] }, names: new Set(), described: false };
      namespaces.set(namespace, group);
      result.push(group.entry);
    }
    if (group.names.has(name)) (duplicates ??= []).push(toolKey({ name, namespace }));
    group.names.add(name);
    group.entry.tools.push(made.entry);
    if (!group.described && tool.namespaceDescription !== undefined && tool.namespaceDescription.trim() !== '') {
      group.entry.description = tool.namespaceDescription;
      group.described = true;
    }
  }
  if (invalid !== undefined) {
    throw new ToolSetError(
      `Invalid tool or namespace names: ${invalid.join(', ')}. Names must match ${TOOL_NAME_PATTERN} (letters, digits, "_" and "-", 1 to 64 characters).`,
      invalid,
    );
  }
  if (duplicates !== undefined) {
    const unique = [...new Set(duplicates)];
    throw new ToolSetError(
      `Duplicate tools in the tool set: ${unique.join(', ')}. Each tool needs a distinct name within its namespace; drop or rename one of each pair.`,
      unique,
    );
  }
  for (const [name, group] of namespaces) {
    if (topLevel.has(name)) {
      const clashes = [...namespaces.keys()].filter((namespace) => topLevel.has(namespace));
      throw new ToolSetError(
        `Namespaces named like top-level tools: ${clashes.join(', ')}. Rename the namespace or the tool so the model can tell them apart.`,
        clashes,
      );
    }
    if (!group.described) group.entry.description = `Tools of the "${name}" namespace: ${group.entry.tools.map((entry) => entry.name).join(', ')}.`;
  }
  if (deferred && options.includeToolSearch !== false) {
    result.push(toolSearchToolParam(options.toolSearchDescription === undefined ? {} : { description: options.toolSearchDescription }));
  }
  return result;
}

interface NamespaceGroup {
  entry: NamespaceToolParam;
  names: Set<string>;
  described: boolean;
}

function isValidName(name: unknown): name is string {
  return typeof name === 'string' && TOOL_NAME_PATTERN.test(name);
}
