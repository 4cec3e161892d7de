import type OpenAI from 'openai';
import type { AnyWorkerAgentTool } from './worker-agent-tool.js';

/** One entry of the Responses `tools` field. */
export type ResponsesTool = OpenAI.Responses.Tool;

/** Options of `collectToolSchemas`. */
export interface CollectToolSchemasOptions {
  /** Description of the client-executed `tool_search` tool added when any tool is deferred. */
  toolSearchDescription?: string;
}

/**
 * The value of the Responses `tools` field for a tool set, in assembly order.
 * @throws ToolSetError on duplicate or invalid names.
 */
export function collectToolSchemas(tools: readonly AnyWorkerAgentTool[], options: CollectToolSchemasOptions = {}): ResponsesTool[] {
  // TODO(runtime-schema helper)
  void options;
  return tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, parameters: {}, strict: tool.strict }));
}
