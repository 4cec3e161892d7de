import type { ComputerLimits } from './computer-limits.js';
import type { HomeFolder } from './home-folder.js';

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
}

/** The checked context the individual tools share. */
export interface ComputerToolContext {
  readonly home: HomeFolder;
  readonly env: Readonly<Record<string, string>>;
  readonly signal: AbortSignal | undefined;
  readonly limits: Readonly<ComputerLimits>;
  readonly shell: string;
}
