import path from 'node:path';
import { UsageError } from '@core/runtime';

/** An MCP config file that cannot be used: not JSON, or not the mcporter shape (`mcpServers`). */
export class McpConfigError extends UsageError {
  readonly configPath: string;

  constructor(configPath: string, message: string, options: { cause?: unknown } = {}) {
    super('mcp_config_invalid', message, options);
    this.configPath = configPath;
  }
}

/**
 * Reads an mcporter config file (JSON with comments allowed: `{ "mcpServers": { "<name>": { "command" | "url", … } } }`)
 * without starting any server, and resolves with the names of the servers it defines.
 * @throws McpConfigError (`mcp_config_invalid`) with one sentence saying where the file is wrong: bad JSON (with the
 *   offset), or the first field that does not fit (`mcpServers.files.command: …`).
 */
export async function checkMcpConfig(configPath: string): Promise<string[]> {
  try {
    // mcporter is ESM-only and large: loaded when a config is first checked, not with the package.
    const { loadServerDefinitions } = await import('mcporter');
    const definitions = await loadServerDefinitions({ configPath, rootDir: path.dirname(configPath) });
    return definitions.map((definition) => definition.name);
  } catch (error) {
    const issues = (error as { issues?: Array<{ path?: PropertyKey[]; message?: string }> }).issues;
    const what =
      Array.isArray(issues) && issues.length > 0
        ? `${issues[0]!.path?.map(String).join('.') || 'the file'}: ${issues[0]!.message ?? 'invalid'}`
        : error instanceof Error
          ? error.message
          : String(error);
    throw new McpConfigError(
      configPath,
      `The MCP config ${configPath} is not a valid mcporter config (${what.replace(/\s+/g, ' ').replace(/\.$/, '')}): it must be JSON with an "mcpServers" object, each server with a "command" or a "url".`,
      { cause: error },
    );
  }
}
