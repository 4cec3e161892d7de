/** Where MCP problems (a server down, a tool skipped) are reported. */
export interface McpLogger {
  warn(message: string): void;
  info?(message: string): void;
  error?(message: string, error?: unknown): void;
  debug?(message: string): void;
}

/** The default logger: `console.warn` / `console.error`, prefixed with `[mcp]`; info and debug are dropped. */
export function consoleMcpLogger(): McpLogger {
  return {
    warn: (message) => console.warn(`[mcp] ${message}`),
    error: (message, error) => console.error(`[mcp] ${message}`, ...(error === undefined ? [] : [error])),
  };
}
