import { UsageError, type AnyWorkerAgentTool } from '@core/runtime';
import { createCommandTool } from './command-tool.js';
import type { ComputerContext, ComputerToolContext } from './computer-context.js';
import { DEFAULT_COMPUTER_LIMITS, type ComputerLimits } from './computer-limits.js';
import { createEditFileTool } from './edit-file-tool.js';
import { homeFolder } from './home-folder.js';
import { processCommandSandbox } from './sandbox/process-command-sandbox.js';
import { createListFilesTool } from './list-files-tool.js';
import { createReadFileTool } from './read-file-tool.js';
import { createSearchFilesTool } from './search-files-tool.js';
import { createWriteFileTool } from './write-file-tool.js';

/**
 * The tools of the agent's computer, built for one turn: `command`, `read_file`, `list_files`,
 * `search_files`, `write_file` and `edit_file`, all confined to `context.home`.
 * Refusals and failures come back to the model as error results (`isError: true`); the tools never throw.
 * @throws UsageError (`home_invalid`, `limits_invalid`) when the context is unusable.
 */
export function createComputerTools(context: ComputerContext): AnyWorkerAgentTool[] {
  const shared: ComputerToolContext = Object.freeze({
    home: homeFolder(context.home),
    env: Object.freeze({ ...context.env }),
    signal: context.signal,
    limits: checkLimits(context.limits),
    shell: context.shell ?? 'bash',
    sandbox: context.sandbox ?? processCommandSandbox(),
    allowHosts: Object.freeze(checkHosts(context.allowHosts ?? [])),
  });
  return [
    createCommandTool(shared),
    createReadFileTool(shared),
    createListFilesTool(shared),
    createSearchFilesTool(shared),
    createWriteFileTool(shared),
    createEditFileTool(shared),
  ];
}

/** Host names (or `*.` patterns) as given; anything else is a usage error. */
function checkHosts(hosts: readonly string[]): string[] {
  for (const host of hosts) {
    if (typeof host !== 'string' || !/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(host)) {
      throw new UsageError('allow_hosts_invalid', `Allowed host ${JSON.stringify(host)} is not a host name: give names like example.com or *.example.com.`);
    }
  }
  return [...hosts];
}

function checkLimits(limits: Partial<ComputerLimits> | undefined): Readonly<ComputerLimits> {
  const merged: ComputerLimits = { ...DEFAULT_COMPUTER_LIMITS };
  for (const [key, value] of Object.entries(limits ?? {}) as [keyof ComputerLimits, unknown][]) {
    if (value === undefined) continue;
    if (!(key in DEFAULT_COMPUTER_LIMITS)) throw new UsageError('limits_invalid', `Unknown computer limit "${key}".`);
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new UsageError('limits_invalid', `Computer limit ${key} must be a positive number, got ${String(value)}.`);
    }
    merged[key] = value;
  }
  if (merged.commandTimeoutMs > merged.maxCommandTimeoutMs) {
    throw new UsageError('limits_invalid', `commandTimeoutMs (${merged.commandTimeoutMs}) is above maxCommandTimeoutMs (${merged.maxCommandTimeoutMs}).`);
  }
  return Object.freeze(merged);
}
