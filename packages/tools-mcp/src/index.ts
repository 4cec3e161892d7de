export { createMcpTools } from './create-mcp-tools.js';
export type { McpTools } from './create-mcp-tools.js';
export { createMcpToolSource } from './mcp-tool-source.js';
export type { McpCallDetails, McpServerProblem, McpToolSet, McpToolSource, McpToolSourceOptions, McpToolsRequest } from './mcp-tool-source.js';
export { consoleMcpLogger } from './mcp-logger.js';
export type { McpLogger } from './mcp-logger.js';
export { mcpResultContent } from './mcp-result-content.js';
export type { McpContentOptions } from './mcp-result-content.js';
export { sanitizeName, uniqueName } from './sanitize-name.js';
