import type { ComputerLimits } from './computer-limits.js';
import type { HomeFolder } from './home-folder.js';
import type { CommandSandbox } from './sandbox/command-sandbox.js';

/** What `createComputerTools` is built with: the turn's context. */
export interface ComputerContext {
  /** The agent's home folder (absolute, existing). Every file tool is confined to it; commands run in it. */
  home: string;
  /**
   * The environment variables the worker allows commands to see. A command's environment is exactly
   * these plus `HOME`, `LANG`, `TERM`, `NO_COLOR`, `PAGER`, `GIT_PAGER`, a `PATH`, `MCPORTER_CONFIG` when
   * the home has an mcporter config (see `commandEnvironment`), and `ANKOLE_COMMAND_ID`, which marks the
   * command's processes so that none outlives it.
   */
  env?: Readonly<Record<string, string>>;
  /** The turn's abort signal: aborting it kills running commands. */
  signal?: AbortSignal;
  /** Limits; each one missing takes its default from `DEFAULT_COMPUTER_LIMITS`. */
  limits?: Partial<ComputerLimits>;
  /** The shell commands run with (default `bash`, invoked as `<shell> -c <command>`). */
  shell?: string;
  /**
   * The OS sandbox every `command` runs in (`createCommandSandbox()`; a worker makes one and shares it between its
   * turns). Default: one made for the process at the first command. `'unsandboxed'` is the explicit opt-out:
   * commands then reach everything the worker's user can. Where no sandbox can be made, `command` refuses
   * (`sandbox_unavailable`); it never falls back to running unsandboxed.
   */
  sandbox?: CommandSandbox | 'unsandboxed';
  /**
   * Hosts this agent's commands may reach (HTTP and HTTPS through the sandbox's filtering proxy): `example.com`,
   * or `*.example.com` for its sub-domains. Empty (the default): commands have no network at all. Loopback,
   * private, link-local and reserved addresses are refused whatever the list says.
   */
  allowHosts?: readonly string[];
}

/** The checked context the individual tools share. */
export interface ComputerToolContext {
  readonly home: HomeFolder;
  readonly env: Readonly<Record<string, string>>;
  readonly signal: AbortSignal | undefined;
  readonly limits: Readonly<ComputerLimits>;
  readonly shell: string;
  readonly sandbox: CommandSandbox | 'unsandboxed';
  readonly allowHosts: readonly string[];
}
