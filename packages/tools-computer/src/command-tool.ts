import { existsSync } from 'node:fs';
import { defineWorkerTool, type AgentToolResult, type WorkerAgentTool } from '@core/runtime';
import { z } from 'zod';
import { commandEnvironment } from './command-environment.js';
import type { ComputerToolContext } from './computer-context.js';
import { ComputerToolError } from './errors.js';
import { formatDuration, shortLabel } from './labels.js';
import { runCommand } from './run-command.js';
import { toolErrorResult, type ToolErrorDetails } from './tool-error-result.js';

/** How much longer than a command's longest run (timeout + kill grace twice) the dispatch may wait for it. */
const DISPATCH_MARGIN_MS = 5_000;

/** Details of a `command` call (for logs and UIs). */
export interface CommandDetails {
  command: string;
  exitCode: number | null;
  exitSignal: string | null;
  durationMs: number;
  timedOut: boolean;
  aborted: boolean;
  stdoutBytes: number;
  stderrBytes: number;
  /** Bytes of output cut by the cap (stdout + stderr). */
  cutBytes: number;
}

/** The parameters of `command`. */
export interface CommandParams {
  command: string;
  timeout_ms?: number | undefined;
}

/** Schemas by timeout ceiling: built once per ceiling, so the runtime's JSON Schema memo holds across turns. */
const COMMAND_SCHEMAS = new Map<number, CommandSchema>();
/** Ceilings kept in `COMMAND_SCHEMAS` at most (a worker uses one or two). */
const MAX_COMMAND_SCHEMAS = 16;

type CommandSchema = z.ZodType<CommandParams>;

/** The parameters' schema for a timeout ceiling (the same object every turn; the ceiling is its `maximum`). */
export function commandSchema(maxCommandTimeoutMs: number): CommandSchema {
  const cached = COMMAND_SCHEMAS.get(maxCommandTimeoutMs);
  if (cached !== undefined) return cached;
  const schema = z.object({
    command: z.string().min(1).describe('The bash command line to run. The working folder is the home folder.'),
    timeout_ms: z
      .number()
      .int()
      .positive()
      .max(maxCommandTimeoutMs)
      .optional()
      .describe(`Timeout in milliseconds (at most ${maxCommandTimeoutMs}; the default is in the tool description).`),
  });
  if (COMMAND_SCHEMAS.size < MAX_COMMAND_SCHEMAS) COMMAND_SCHEMAS.set(maxCommandTimeoutMs, schema);
  return schema;
}

/**
 * The `command` tool: runs a bash command line in the home, in its own process group, with a
 * timeout (default and ceiling from the limits), capped output, and a scrubbed environment.
 * Sequential and destructive.
 */
export function createCommandTool(context: ComputerToolContext): WorkerAgentTool<CommandParams, CommandDetails | ToolErrorDetails> {
  const { limits } = context;
  const schema = commandSchema(limits.maxCommandTimeoutMs);
  return defineWorkerTool({
    name: 'command',
    description:
      'Run a shell command (bash) in the home folder and get its exit code, stdout and stderr. ' +
      `Long output keeps its beginning and end. The command is killed, with every process it started, when it ` +
      `runs past its timeout (default ${formatDuration(limits.commandTimeoutMs)}, timeout_ms ${limits.commandTimeoutMs}); background processes do not outlive it.`,
    schema,
    executionMode: 'sequential',
    isDestructive: true,
    // The dispatch timeout must not cut a command short: the command's own timeout kills its processes and
    // reports. Longest run: timeout, grace until the shell's SIGKILL, grace again for leftovers, then the margin.
    timeoutMs: limits.maxCommandTimeoutMs + 2 * limits.killGraceMs + DISPATCH_MARGIN_MS,
    describeActivity: (params) => `Running \`${shortLabel(params.command)}\``,
    describeCompletedActivity: (params, result) => `Ran \`${shortLabel(params.command)}\` (${outcome(result.details)})`,
    execute: async (params, call): Promise<AgentToolResult<CommandDetails | ToolErrorDetails>> => {
      const signals = [call.signal, context.signal].filter((signal): signal is AbortSignal => signal !== undefined);
      try {
        const run = await runCommand({
          command: params.command,
          cwd: context.home.realRoot,
          env: commandEnvironment(context.home.realRoot, context.env),
          timeoutMs: params.timeout_ms ?? limits.commandTimeoutMs,
          killGraceMs: limits.killGraceMs,
          maxOutputBytes: limits.maxOutputBytes,
          signal: signals.length === 0 ? undefined : AbortSignal.any(signals),
          shell: context.shell,
        });
        const details: CommandDetails = {
          command: params.command,
          exitCode: run.exitCode,
          exitSignal: run.exitSignal,
          durationMs: Math.round(run.durationMs),
          timedOut: run.timedOut,
          aborted: run.aborted,
          stdoutBytes: run.stdout.totalBytes,
          stderrBytes: run.stderr.totalBytes,
          cutBytes: run.stdout.omittedBytes + run.stderr.omittedBytes,
        };
        const lines = [statusLine(details, params.timeout_ms ?? limits.commandTimeoutMs)];
        lines.push(run.stdout.totalBytes === 0 ? 'stdout: (empty)' : `stdout:\n${run.stdout.text()}`);
        if (run.stderr.totalBytes > 0) lines.push(`stderr:\n${run.stderr.text()}`);
        return { content: lines.join('\n'), details, isError: run.timedOut || run.aborted || run.exitCode !== 0 };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // Node says "spawn bash ENOENT" for a missing working folder too: name the real cause.
        const reason = existsSync(context.home.realRoot) ? message : `the home folder ${context.home.realRoot} no longer exists`;
        return toolErrorResult(new ComputerToolError('command_start_failed', `The command could not be started (${context.shell}): ${reason}`, { cause: error }));
      }
    },
  });
}

function statusLine(details: CommandDetails, timeoutMs: number): string {
  const took = formatDuration(details.durationMs);
  if (details.timedOut) return `Timed out after ${formatDuration(timeoutMs)}; the command and every process it started were killed.`;
  if (details.aborted) return `Aborted after ${took}; the command and every process it started were killed.`;
  if (details.exitCode === null) return `Killed by ${details.exitSignal ?? 'a signal'} after ${took}.`;
  return `Exit code ${details.exitCode} (${took}).`;
}

function outcome(details: CommandDetails | ToolErrorDetails | undefined): string {
  if (details === undefined) return 'failed';
  if ('error' in details) return `failed: ${shortLabel(details.error.message, 40)}`;
  if (details.timedOut) return `timed out after ${formatDuration(details.durationMs)}`;
  if (details.aborted) return `aborted after ${formatDuration(details.durationMs)}`;
  if (details.exitCode === null) return `killed by ${details.exitSignal ?? 'a signal'}, ${formatDuration(details.durationMs)}`;
  return `exit ${details.exitCode}, ${formatDuration(details.durationMs)}`;
}
