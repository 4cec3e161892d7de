import path from 'node:path';
import type { AnyWorkerAgentTool } from '@core/runtime';
import { createMcpToolSource, type McpServerProblem } from '@core/tools-mcp';

/** A change in which MCP servers a worker's turns can use. */
export type WorkerMcpEvent =
  /** The server could not be listed (cannot start, crashed, timed out, config unreadable): its tools are left out until it answers. */
  | { type: 'mcp.unavailable'; server: string; reason: string }
  /** A server reported unavailable before answers again: its tools are back. */
  | { type: 'mcp.available'; server: string };

/** Options of `createWorkerMcpTools`. */
export interface WorkerMcpToolsOptions {
  /** The mcporter config (absolute path); relative paths in it resolve from its folder. */
  configPath: string;
  /** Called when a server becomes unavailable (or its reason changes) and when it is back; not again while nothing changes. */
  onEvent?: (event: WorkerMcpEvent) => void;
}

/** The MCP tools of a long-running worker: one tool source for the whole process. */
export interface WorkerMcpTools {
  /** The MCP tools for one turn: cached lists, servers that are down listed again (and left out while down). Never throws. */
  tools(): Promise<AnyWorkerAgentTool[]>;
  /** Closes the connections and stops the stdio servers' processes. */
  close(): Promise<void>;
}

/**
 * One MCP tool source per worker process, not per turn: connections and tool lists are kept between
 * turns. Each turn asks it for the current tools; servers that are down are reported once through
 * `onEvent` (not every turn) and reported again when they are back.
 */
export function createWorkerMcpTools(options: WorkerMcpToolsOptions): WorkerMcpTools {
  const source = createMcpToolSource({
    configPath: options.configPath,
    rootDir: path.dirname(options.configPath),
    // Unavailable servers are reported through `onEvent`, once; mcporter's own chatter is not wanted in the worker's log.
    logger: { warn: () => undefined, error: () => undefined },
  });
  const down = new Map<string, string>();

  const report = (unavailable: McpServerProblem[]) => {
    const now = new Map(unavailable.map((problem) => [problem.server, problem.reason]));
    for (const [server, reason] of now) {
      if (down.get(server) === reason) continue;
      down.set(server, reason);
      options.onEvent?.({ type: 'mcp.unavailable', server, reason });
    }
    for (const server of [...down.keys()]) {
      if (now.has(server)) continue;
      down.delete(server);
      options.onEvent?.({ type: 'mcp.available', server });
    }
  };

  return {
    async tools() {
      const { tools, unavailable } = await source.tools();
      report(unavailable);
      return tools;
    },
    close: () => source.close(),
  };
}
