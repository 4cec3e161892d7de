import { homedir } from 'node:os';
import path from 'node:path';
import { createCommandSandbox, type CommandSandbox, type CommandSandboxStatus, type ComputerLimits } from '@core/tools-computer';
import { CliError } from './cli-error.js';
import type { CliIO } from './cli-io.js';
import { stringValues, type ParsedCommandLine } from './parse-command-line.js';

/** How a turn's (or a worker's) commands run: in the OS sandbox, or unsandboxed by the user's explicit choice. */
export interface CommandsSetup {
  sandbox: CommandSandbox | 'unsandboxed';
  /** Hosts commands may reach (`--allow-host`, `commands.allowHosts`); empty: no network. */
  allowHosts: string[];
  /** Why commands will be refused, when that is known without setting the sandbox up (no bubblewrap, not Linux). */
  refusal: string | undefined;
  /** Why commands run unsandboxed (default: the user's `--unsandboxed-commands`). */
  unsandboxedBecause?: string;
  /** Removes the sandbox's files and cgroups. */
  close(): Promise<void>;
}

/**
 * The commands' sandbox the options ask for: `--unsandboxed-commands` (or `ANKOLE_UNSANDBOXED_COMMANDS=1`, or
 * `commands.unsandboxed` in a config file) opts out; otherwise a bubblewrap sandbox that never shows the user's HOME, the data folder or the config folder.
 * @throws CliError (`allow_host_invalid`) for an `--allow-host` that is not a host name.
 */
export function commandsSetup(values: ParsedCommandLine['values'], io: Pick<CliIO, 'env'>): CommandsSetup {
  const allowHosts = [...new Set(stringValues(values, 'allow-host'))];
  for (const host of allowHosts) {
    if (!/^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(host)) {
      throw new CliError('allow_host_invalid', `--allow-host ${host}: give a host name like example.com, or *.example.com for its sub-domains.`);
    }
  }
  if (values['unsandboxed-commands'] === true) return { sandbox: 'unsandboxed', allowHosts, refusal: undefined, close: async () => undefined };
  if (['1', 'true'].includes(io.env.ANKOLE_UNSANDBOXED_COMMANDS ?? '')) {
    return { sandbox: 'unsandboxed', allowHosts, refusal: undefined, unsandboxedBecause: 'commands.unsandboxed', close: async () => undefined };
  }
  // ANKOLE_BWRAP: another bubblewrap program than the one on PATH.
  const bwrap = io.env.ANKOLE_BWRAP !== undefined && io.env.ANKOLE_BWRAP !== '' ? io.env.ANKOLE_BWRAP : undefined;
  const sandbox = createCommandSandbox({ protectedPaths: protectedPaths(io.env), ...(bwrap === undefined ? {} : { bwrap }) });
  return { sandbox, allowHosts, refusal: sandbox.quickCheck(), close: () => sandbox.close() };
}

/** Folders a command must never see: the user's HOME, and Ankole's data and config folders. */
function protectedPaths(env: CliIO['env']): string[] {
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  const dataHome = env.XDG_DATA_HOME !== undefined && env.XDG_DATA_HOME !== '' ? env.XDG_DATA_HOME : path.join(home, '.local', 'share');
  const configHome = env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return [home, path.join(dataHome, 'ankole'), path.join(configHome, 'ankole')];
}

/** The header's words on commands: `commands sandboxed (no network)`, `commands NOT sandboxed (--unsandboxed-commands)`, … */
export function describeCommands(setup: Pick<CommandsSetup, 'sandbox' | 'allowHosts' | 'refusal' | 'unsandboxedBecause'>): string {
  if (setup.sandbox === 'unsandboxed') return `commands NOT sandboxed (${setup.unsandboxedBecause ?? '--unsandboxed-commands'})`;
  if (setup.refusal !== undefined) return 'commands refused (no sandbox here)';
  const network = setup.allowHosts.length === 0 ? 'no network' : `network: ${setup.allowHosts.join(', ')}`;
  return `commands sandboxed (${network})`;
}

/** `ankole tools`' line on the limits of one command. */
export function describeCommandLimits(limits: ComputerLimits): string {
  const size = (bytes: number) => (bytes >= 1024 ** 3 ? `${+(bytes / 1024 ** 3).toFixed(1)} GiB` : `${Math.round(bytes / 1024 ** 2)} MiB`);
  return (
    `Limits per command: timeout ${limits.commandTimeoutMs / 1000} s (the model may ask up to ${limits.maxCommandTimeoutMs / 1000} s), ` +
    `memory ${size(limits.commandMemoryBytes)}, ${limits.commandMaxProcesses} processes, CPU ${limits.commandCpuSeconds} s per process, ` +
    `files up to ${size(limits.commandMaxFileBytes)}, /tmp ${size(limits.commandTmpBytes)}.`
  );
}

/** `ankole tools`' lines on the sandbox: what it is, its limits, the network. */
export function describeSandboxStatus(status: CommandSandboxStatus | 'unsandboxed', allowHosts: readonly string[]): string {
  if (status === 'unsandboxed') return 'Commands: NOT sandboxed (--unsandboxed-commands): they reach everything this user can.';
  if (!status.available) return `Commands: refused. ${status.reason}`;
  const network = allowHosts.length === 0 ? 'no network' : `network only to ${allowHosts.join(', ')} (through a filtering proxy)`;
  const limits = status.limits === 'none' ? 'no memory or process limits: no writable cgroup' : status.limits === 'rlimit' ? 'a process limit by RLIMIT_NPROC, no memory limit: no writable cgroup' : `memory and process limits by ${status.limits}`;
  return `Commands: sandboxed by ${status.mechanism} (uid ${status.uid} inside, seccomp ${status.seccomp ? 'on' : 'off'}, ${limits}); ${network}.`;
}
