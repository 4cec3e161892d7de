import type { AnyWorkerAgentTool } from './worker-agent-tool.js';

/** The key a tool is called by: `namespace.name` for namespaced tools, `name` otherwise. */
export function toolKey(tool: { name: string; namespace?: string | undefined }): string {
  return tool.namespace === undefined ? tool.name : `${tool.namespace}.${tool.name}`;
}

/**
 * A `Map` from the name the model calls (namespace-aware, see `toolKey`) to the tool.
 * @throws ToolSetError on duplicate names.
 */
export function agentToolMap(tools: readonly AnyWorkerAgentTool[]): Map<string, AnyWorkerAgentTool> {
  // TODO(runtime-schema helper): duplicate check.
  return new Map(tools.map((tool) => [toolKey(tool), tool]));
}
