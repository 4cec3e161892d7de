import { defineWorkerTool, type AgentToolResult, type AnyWorkerAgentTool, type JSONObject } from '@core/runtime';
import { randomUUID } from 'node:crypto';
import type { Runtime, ServerDefinition } from 'mcporter';
import { consoleMcpLogger, type McpLogger } from './mcp-logger.js';
import { mcpResultContent } from './mcp-result-content.js';
import { sanitizeName, uniqueName } from './sanitize-name.js';
import { serverWithEnvironment } from './server-environment.js';
import { stopServerProcesses } from './server-processes.js';

/** Options of `createMcpToolSource` / `createMcpTools`. Give `configPath`, `servers` or `runtime` (else mcporter's default config lookup). */
export interface McpToolSourceOptions {
  /** An mcporter config file (e.g. `<home>/config/mcporter.json`). */
  configPath?: string;
  /** Server definitions instead of a config file. */
  servers?: ServerDefinition[];
  /** An mcporter runtime to use; it is not closed by `close()`, and `env` / `inheritEnv` do not apply to it. */
  runtime?: Runtime;
  /**
   * Variables the worker allows stdio servers to see. A stdio server's environment is exactly its own
   * `env` entries (from its definition; mcporter's `${VAR}` placeholders still resolve from the worker's
   * environment), these, and `HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER` (`SERVER_BASE_VARIABLES`);
   * nothing else of the worker's environment (API keys, database URLs) reaches it.
   */
  env?: Readonly<Record<string, string>>;
  /** Give stdio servers the worker's whole environment instead (mcporter's own behaviour; default false). */
  inheritEnv?: boolean;
  /** Folder stdio servers and relative config paths resolve against (mcporter's `rootDir`). */
  rootDir?: string;
  /** Only these servers (default: every configured server). */
  serverNames?: string[];
  /** A server with more tools than this has them all deferred behind tool search (default 20). */
  deferThreshold?: number;
  /** Longest wait for a server's tool list, in ms; past it the server counts as down (default 30 000). */
  listTimeoutMs?: number;
  /** Timeout of one tool call, in ms (default 120 000). */
  callTimeoutMs?: number;
  /** Characters of a tool result's text shown to the model (default 100 000). */
  maxOutputChars?: number;
  /** Longest wait in `close()` for connections still starting, in ms (default 10 000). */
  closeTimeoutMs?: number;
  /** Where problems are reported (default: `consoleMcpLogger()`); also handed to mcporter. */
  logger?: McpLogger;
}

/** A server whose tools are absent from this turn, and why. */
export interface McpServerProblem {
  server: string;
  reason: string;
}

/** The tools of the configured MCP servers for one turn. */
export interface McpToolSet {
  /** One tool per MCP tool, namespaced by server. */
  tools: AnyWorkerAgentTool[];
  /** Servers that are down or could not be listed (their tools are absent), and tools that were skipped. */
  unavailable: McpServerProblem[];
}

/** Options of `McpToolSource.tools`. */
export interface McpToolsRequest {
  /** List again instead of using the cached lists: `true` for every server, or the names of some. */
  refresh?: boolean | string[];
}

/** A per-worker (or per-agent) source of MCP tools: keeps the mcporter runtime and each server's tool list. */
export interface McpToolSource {
  /** The tools for a turn: cached lists where present, servers listed (again) where not. Never throws. */
  tools(request?: McpToolsRequest): Promise<McpToolSet>;
  /** Closes the MCP connections (and stops stdio server processes) this source opened. */
  close(): Promise<void>;
}

/** Details of an MCP tool call. */
export interface McpCallDetails {
  server: string;
  tool: string;
  isError: boolean;
  structuredContent?: unknown;
  error?: string;
}

interface ServerListing {
  tools: AnyWorkerAgentTool[];
  skipped: McpServerProblem[];
}

interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; title?: string };
}

const CLOSE_TIMEOUT_MS = 10_000;
/** Time a stopped server's processes get between SIGTERM and SIGKILL. */
const SERVER_KILL_GRACE_MS = 1_000;
const DEFAULTS = { deferThreshold: 20, listTimeoutMs: 30_000, callTimeoutMs: 120_000, maxOutputChars: 100_000 };

/**
 * Creates a source of MCP tools through mcporter's library. Each server's tools become `WorkerAgentTool`s:
 * `jsonSchema` is the server's input schema, unchanged; `namespace` is the server name made valid for the
 * Responses API (characters outside `[a-zA-Z0-9_-]` become `_`, cut to 64; see `sanitizeName`) with the
 * server's description as `namespaceDescription`; a server with more tools than `deferThreshold` has its
 * tools `deferLoading`; `isReadOnly` = `readOnlyHint`, `isDestructive` = not read-only and `destructiveHint`
 * not false (the MCP defaults); read-only tools run `parallel`, the others `sequential`. A result with
 * `isError` becomes an error output. Tool lists are cached per server in the source; a server that is down
 * is left out of that turn (reported in `unavailable` and to the logger) and tried again next time.
 * Nothing is started until `tools()` is called.
 */
export function createMcpToolSource(options: McpToolSourceOptions = {}): McpToolSource {
  const logger = options.logger ?? consoleMcpLogger();
  const deferThreshold = options.deferThreshold ?? DEFAULTS.deferThreshold;
  const listTimeoutMs = options.listTimeoutMs ?? DEFAULTS.listTimeoutMs;
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULTS.callTimeoutMs;
  const maxOutputChars = options.maxOutputChars ?? DEFAULTS.maxOutputChars;
  const listings = new Map<string, ServerListing>();
  const inflight = new Map<string, Promise<ServerListing>>();
  /** Per stdio server, the marker its processes carry (to stop a server that hangs). */
  const markers = new Map<string, string>();
  let runtimePromise: Promise<Runtime> | undefined;
  let closed = false;

  const openRuntime = async (): Promise<Runtime> => {
    // mcporter is ESM-only and large: loaded when the first server is listed, not with the package.
    const { createRuntime, loadServerDefinitions } = await import('mcporter');
    const definitions =
      options.servers ??
      (await loadServerDefinitions({
        ...(options.configPath === undefined ? {} : { configPath: options.configPath }),
        ...(options.rootDir === undefined ? {} : { rootDir: options.rootDir }),
      }));
    const servers = definitions.map((definition) => {
      const markerId = randomUUID();
      if (definition.command.kind === 'stdio') markers.set(definition.name, markerId);
      return serverWithEnvironment(definition, { markerId, allowed: options.env, inheritEnv: options.inheritEnv });
    });
    return createRuntime({ servers, logger: mcporterLogger(logger) });
  };
  const runtime = (): Promise<Runtime> => {
    runtimePromise ??= options.runtime !== undefined ? Promise.resolve(options.runtime) : openRuntime();
    return runtimePromise;
  };
  const stopProcesses = async (server: string): Promise<void> => {
    const markerId = markers.get(server);
    if (markerId !== undefined) await stopServerProcesses(markerId, SERVER_KILL_GRACE_MS);
  };

  const listServer = async (mcp: Runtime, server: string): Promise<ServerListing> => {
    const work = (async () => {
      const listed = await mcp.listTools(server, { includeSchema: true });
      const context = await mcp.connect(server);
      const full = new Map<string, McpToolInfo>();
      let cursor: string | undefined;
      do {
        const page = await context.client.listTools(cursor === undefined ? undefined : { cursor });
        for (const tool of page.tools as McpToolInfo[]) full.set(tool.name, tool);
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      const instructions = context.client.getInstructions?.();
      return { listed, full, description: context.definition.description ?? instructions };
    })();
    const { listed, full, description } = await withTimeout(work, listTimeoutMs, `listing its tools took longer than ${listTimeoutMs} ms`);
    const namespace = sanitizeName(server);
    const namespaceDescription = describeNamespace(server, description);
    const deferLoading = listed.length > deferThreshold;
    const names = new Set<string>();
    const tools: AnyWorkerAgentTool[] = [];
    const skipped: McpServerProblem[] = [];
    for (const info of listed) {
      const annotations = full.get(info.name)?.annotations ?? {};
      const readOnly = annotations.readOnlyHint === true;
      const name = uniqueName(sanitizeName(info.name, 'tool'), names);
      const jsonSchema = (typeof info.inputSchema === 'object' && info.inputSchema !== null ? info.inputSchema : { type: 'object', properties: {} }) as JSONObject;
      try {
        tools.push(
          defineWorkerTool<McpCallDetails>({
            name,
            description: info.description?.trim() || annotations.title || `The ${info.name} tool of the MCP server "${server}".`,
            jsonSchema,
            namespace,
            namespaceDescription,
            deferLoading,
            isReadOnly: readOnly,
            isDestructive: !readOnly && annotations.destructiveHint !== false,
            executionMode: readOnly ? 'parallel' : 'sequential',
            // Our own call timeout answers first, with a clear error output.
            timeoutMs: callTimeoutMs + 5_000,
            describeActivity: () => `Calling ${server}.${info.name}`,
            describeCompletedActivity: (_params, result) => `Called ${server}.${info.name}${result.isError === true ? ' (error)' : ''}`,
            execute: (params, call) => callMcpTool(runtime, server, info.name, params, call.signal, { callTimeoutMs, maxOutputChars }),
          }),
        );
      } catch (error) {
        skipped.push({ server, reason: `Tool "${info.name}" was skipped: ${(error as Error).message}` });
      }
    }
    return { tools, skipped };
  };

  return {
    async tools(request = {}): Promise<McpToolSet> {
      if (closed) return { tools: [], unavailable: [{ server: '*', reason: 'The MCP tool source is closed.' }] };
      let mcp: Runtime;
      try {
        mcp = await runtime();
      } catch (error) {
        runtimePromise = undefined;
        const reason = `The MCP configuration could not be loaded: ${(error as Error).message}`;
        logger.warn(reason);
        return { tools: [], unavailable: [{ server: '*', reason }] };
      }
      const servers = options.serverNames ?? mcp.listServers();
      const refresh = request.refresh;
      const results = await Promise.all(
        servers.map(async (server): Promise<ServerListing | McpServerProblem> => {
          const cached = listings.get(server);
          const stale = refresh === true || (Array.isArray(refresh) && refresh.includes(server));
          if (cached !== undefined && !stale) return cached;
          try {
            // Concurrent turns share one listing of a server.
            let pending = inflight.get(server);
            if (pending === undefined) {
              pending = listServer(mcp, server).then((listing) => {
                listings.set(server, listing);
                for (const problem of listing.skipped) logger.warn(`MCP server "${server}": ${problem.reason}`);
                return listing;
              });
              inflight.set(server, pending);
              void pending.finally(() => inflight.delete(server)).catch(() => undefined);
            }
            return await pending;
          } catch (error) {
            listings.delete(server);
            // A server hanging in its handshake would keep its process until the SDK's 60 s initialize
            // timeout: stop its processes now, which also ends mcporter's pending connection.
            void stopProcesses(server)
              .catch(() => undefined)
              .then(() => mcp.close(server))
              .catch(() => undefined);
            const reason = `MCP server "${server}" is unavailable; its tools are left out of this turn: ${(error as Error).message}`;
            logger.warn(reason);
            return { server, reason };
          }
        }),
      );
      const tools: AnyWorkerAgentTool[] = [];
      const unavailable: McpServerProblem[] = [];
      const namespaces = new Map<string, string>();
      for (const [index, result] of results.entries()) {
        if ('reason' in result) {
          unavailable.push(result);
          continue;
        }
        const first = result.tools[0];
        const server = servers[index] ?? '';
        if (first?.namespace !== undefined) {
          const owner = namespaces.get(first.namespace);
          if (owner !== undefined) {
            const reason = `MCP server "${server}" has the same namespace as "${owner}" (${first.namespace}) once its name is made valid; its tools are left out. Rename one of them.`;
            logger.warn(reason);
            unavailable.push({ server, reason });
            continue;
          }
          namespaces.set(first.namespace, server);
        }
        tools.push(...result.tools);
        unavailable.push(...result.skipped);
      }
      return { tools, unavailable };
    },

    async close(): Promise<void> {
      closed = true;
      listings.clear();
      const pending = runtimePromise;
      runtimePromise = undefined;
      if (pending === undefined || options.runtime !== undefined) return;
      const mcp = await pending.catch(() => undefined);
      // Servers still being listed may be stuck in their handshake, which mcporter's close would wait out
      // (the SDK's 60 s): stop their processes first.
      await Promise.all([...inflight.keys()].map((server) => stopProcesses(server).catch(() => undefined)));
      // Bounded all the same.
      await withTimeout(mcp?.close() ?? Promise.resolve(), options.closeTimeoutMs ?? CLOSE_TIMEOUT_MS, 'closing took too long').catch((error: unknown) => {
        logger.warn(`Closing the MCP connections: ${(error as Error).message}`);
      });
      // Whatever a stdio server left running (or a server still in its handshake) is stopped too.
      await Promise.all([...markers.keys()].map((server) => stopProcesses(server).catch(() => undefined)));
    },
  };
}

async function callMcpTool(
  runtime: () => Promise<Runtime>,
  server: string,
  tool: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
  limits: { callTimeoutMs: number; maxOutputChars: number },
): Promise<AgentToolResult<McpCallDetails>> {
  try {
    const mcp = await runtime();
    const result = await abortable(mcp.callTool(server, tool, { args: params, timeoutMs: limits.callTimeoutMs }), signal);
    const record = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
    const isError = record.isError === true;
    const details: McpCallDetails = { server, tool, isError };
    if (record.structuredContent !== undefined) details.structuredContent = record.structuredContent;
    return { content: mcpResultContent(result, { maxTextChars: limits.maxOutputChars }), details, isError };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      content: `The MCP tool ${server}.${tool} failed: ${message}`,
      details: { server, tool, isError: true, error: message },
      isError: true,
    };
  }
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('the call was aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('the call was aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The server's description (from its config), else its instructions (cut at a line end within 1 024 characters), else a default. */
function describeNamespace(server: string, description: string | undefined): string {
  const text = description?.trim() ?? '';
  if (text === '') return `Tools of the MCP server "${server}".`;
  if (text.length <= 1024) return text;
  const cut = text.slice(0, 1023);
  const lineEnd = cut.lastIndexOf('\n');
  return `${lineEnd > 200 ? cut.slice(0, lineEnd) : cut}…`;
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function mcporterLogger(logger: McpLogger): { info(message: string): void; warn(message: string): void; error(message: string, error?: unknown): void; debug(message: string): void } {
  return {
    info: (message) => logger.info?.(message),
    warn: (message) => logger.warn(message),
    error: (message, error) => (logger.error === undefined ? logger.warn(message) : logger.error(message, error)),
    debug: (message) => logger.debug?.(message),
  };
}
