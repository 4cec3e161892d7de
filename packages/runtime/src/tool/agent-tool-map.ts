import { ToolSetError } from '../errors.js';
import type { AnyWorkerAgentTool } from './worker-agent-tool.js';

/** The key a tool is called by: `namespace.name` for namespaced tools, `name` otherwise. */
export function toolKey(tool: { name: string; namespace?: string | undefined }): string {
  return tool.namespace === undefined ? tool.name : `${tool.namespace}.${tool.name}`;
}

/** The key a call (or an item naming a tool) is looked up by: `toolKey`, an empty or `null` namespace counting as none. */
export function callKey(call: { name: string; namespace?: string | null | undefined }): string {
  const namespace = call.namespace;
  return toolKey({ name: call.name, namespace: namespace === null || namespace === '' ? undefined : namespace });
}

/**
 * A `Map` from the name the model calls (namespace-aware, see `toolKey`) to the tool, in assembly order.
 * @throws ToolSetError (`code: 'tool_set_invalid'`, `toolNames` = the duplicated keys) when two tools share a key.
 */
export function agentToolMap(tools: readonly AnyWorkerAgentTool[]): Map<string, AnyWorkerAgentTool> {
  const map = new Map<string, AnyWorkerAgentTool>();
  const duplicates: string[] = [];
  for (const tool of tools) {
    const key = toolKey(tool);
    if (map.has(key)) {
      if (!duplicates.includes(key)) duplicates.push(key);
    } else {
      map.set(key, tool);
    }
  }
  if (duplicates.length > 0) {
    throw new ToolSetError(
      `Duplicate tool names in the tool set: ${duplicates.join(', ')}. Each tool needs a distinct name within its namespace; drop or rename one of each pair.`,
      duplicates,
    );
  }
  return map;
}
