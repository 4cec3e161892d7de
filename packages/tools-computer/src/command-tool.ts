import { existsSync } from 'node:fs';
import { defineWorkerTool, type AgentToolResult, type WorkerAgentTool } from '@core/runtime';
import { z } from 'zod';
import { commandEnvironment } from './command-environment.js';
import type { ComputerToolContext } from './computer-context.js';
import { ComputerToolError } from './errors.js';
import { formatDuration, shortLabel } from './labels.js';
import { runCommand } from './run-command.js';
import { SandboxLaunchError, SandboxUnavailableError, type SandboxedCall } from './sandbox/command-sandbox.js';
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
  /** Whether the command ran in the OS sandbox. */
  sandboxed: boolean;
  /** The sandbox limits the command hit (`memory`, `processes`, `cpu`, `file size`), if any. */
  limitsHit: string[];
  /** Connections the sandbox's network proxy refused. */
  networkRefusals: string[];
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
      `runs past its timeout (default ${formatDuration(limits.commandTimeoutMs)}, timeout_ms ${limits.commandTimeoutMs}); background processes do not outlive it.` +
      sandboxNote(context),
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
      let sandboxed: SandboxedCall | undefined;
      if (context.sandbox !== 'unsandboxed') {
        if (!existsSync(context.home.realRoot)) {
          return toolErrorResult(new ComputerToolError('command_start_failed', `The command could not be started (${context.shell}): the home folder ${context.home.realRoot} no longer exists`));
        }
        try {
          sandboxed = await context.sandbox.prepareCall({
            home: context.home.realRoot,
            shell: context.shell,
            command: params.command,
            allowHosts: context.allowHosts,
            limits: {
              memoryBytes: limits.commandMemoryBytes,
              maxProcesses: limits.commandMaxProcesses,
              cpuSeconds: limits.commandCpuSeconds,
              maxFileBytes: limits.commandMaxFileBytes,
              tmpBytes: limits.commandTmpBytes,
            },
          });
        } catch (error) {
          if (error instanceof SandboxUnavailableError) return toolErrorResult(new ComputerToolError('sandbox_unavailable', error.message, { cause: error }));
          return toolErrorResult(new ComputerToolError('sandbox_failed', `The command sandbox could not be set up for this call: ${(error as Error).message}`, { cause: error }));
        }
      }
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
          ...(sandboxed === undefined ? {} : { sandboxed }),
        });
        const stderrText = run.stderr.text();
        // bubblewrap (or the launcher) failing says so on stderr, alone: the command never started.
        if (sandboxed !== undefined && run.exitCode !== 0 && run.stdout.totalBytes === 0 && /^(bwrap|ankole sandbox): [^\n]*\n?$/.test(stderrText)) {
          const missing = /^bwrap: execvp (.*): No such file or directory/.exec(stderrText);
          if (missing !== null) return toolErrorResult(new ComputerToolError('command_start_failed', `The command could not be started (${context.shell}): ${missing[1]} does not exist inside the sandbox (ENOENT).`));
          return toolErrorResult(new ComputerToolError('sandbox_failed', `The command sandbox could not start the command: ${stderrText.trim()}`));
        }
        const limitsHit: string[] = [...(sandboxed?.limitsHit() ?? [])];
        if (sandboxed !== undefined) limitsHit.push(...signalLimits(run.exitCode, run.exitSignal, stderrText));
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
          sandboxed: sandboxed !== undefined,
          limitsHit,
          networkRefusals: [...(sandboxed?.networkRefusals() ?? [])],
        };
        const lines = [statusLine(details, params.timeout_ms ?? limits.commandTimeoutMs)];
        for (const limit of limitsHit) lines.push(limitLine(limit, limits));
        for (const refusal of details.networkRefusals) lines.push(`Network: the sandbox refused a connection: ${refusal}.`);
        lines.push(run.stdout.totalBytes === 0 ? 'stdout: (empty)' : `stdout:\n${run.stdout.text()}`);
        if (run.stderr.totalBytes > 0) lines.push(`stderr:\n${stderrText}`);
        return { content: lines.join('\n'), details, isError: run.timedOut || run.aborted || run.exitCode !== 0 };
      } catch (error) {
        if (error instanceof SandboxLaunchError) return toolErrorResult(new ComputerToolError('sandbox_failed', `The command sandbox could not start the command: ${error.message}`, { cause: error }));
        const message = error instanceof Error ? error.message : String(error);
        // Node says "spawn bash ENOENT" for a missing working folder too: name the real cause.
        const reason = existsSync(context.home.realRoot) ? message : `the home folder ${context.home.realRoot} no longer exists`;
        return toolErrorResult(new ComputerToolError('command_start_failed', `The command could not be started (${context.shell}): ${reason}`, { cause: error }));
      } finally {
        await sandboxed?.release();
      }
    },
  });
}

/** What the model should know of the sandbox: where it may write, and the network it has. */
function sandboxNote(context: ComputerToolContext): string {
  if (context.sandbox === 'unsandboxed') return '';
  const network = context.allowHosts.length === 0 ? 'no network' : `network only over HTTP(S) to ${context.allowHosts.join(', ')} (through a proxy)`;
  return ` It runs in a sandbox: only the home folder and /tmp are writable, nothing outside the home is visible but the system, ${network}.`;
}

/** Limits told by how a process ended: SIGXCPU (RLIMIT_CPU) and SIGXFSZ (RLIMIT_FSIZE), as a signal, an exit code of 128 + it, or the shell's report. */
function signalLimits(exitCode: number | null, exitSignal: string | null, stderr: string): string[] {
  const hit: string[] = [];
  if (exitSignal === 'SIGXCPU' || exitCode === 128 + 24 || /CPU time limit exceeded/.test(stderr)) hit.push('cpu');
  if (exitSignal === 'SIGXFSZ' || exitCode === 128 + 25 || /File size limit exceeded/.test(stderr)) hit.push('file size');
  return hit;
}

function limitLine(limit: string, limits: ComputerToolContext['limits']): string {
  switch (limit) {
    case 'memory':
      return `Limit hit: memory. The command's processes together reached commandMemoryBytes (${formatBytes(limits.commandMemoryBytes)}) and the kernel killed one; use less memory (smaller inputs, streaming) or ask for a higher limit.`;
    case 'processes':
      return `Limit hit: processes. The command tried to run more than commandMaxProcesses (${limits.commandMaxProcesses}) processes and threads at once; a fork was refused.`;
    case 'cpu':
      return `Limit hit: CPU time. A process used commandCpuSeconds (${limits.commandCpuSeconds} s) of CPU time and was stopped (SIGXCPU).`;
    default:
      return `Limit hit: file size. A process tried to write a file larger than commandMaxFileBytes (${formatBytes(limits.commandMaxFileBytes)}) and was stopped (SIGXFSZ).`;
  }
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0) return `${bytes / 1024 ** 3} GiB`;
  if (bytes >= 1024 ** 2) return `${Math.round(bytes / 1024 ** 2)} MiB`;
  return `${bytes} bytes`;
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
