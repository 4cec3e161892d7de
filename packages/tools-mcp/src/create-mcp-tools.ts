import { createMcpToolSource, type McpToolSet, type McpToolSourceOptions } from './mcp-tool-source.js';

/** The MCP tools for one turn, with the means to close their connections. */
export interface McpTools extends McpToolSet {
  /** Closes the connections and stops the stdio servers opened for these tools. */
  close(): Promise<void>;
}

/**
 * Lists the tools of the configured MCP servers once (a one-turn convenience over `createMcpToolSource`):
 * servers that are down are left out and reported in `unavailable`. Call `close()` when the turn is over.
 * Long-running workers should keep one `createMcpToolSource` instead, to reuse connections and cached lists.
 * Never throws.
 */
export async function createMcpTools(options: McpToolSourceOptions = {}): Promise<McpTools> {
  const source = createMcpToolSource(options);
  const set = await source.tools();
  return { ...set, close: () => source.close() };
}
