import type { CliIO } from './cli-io.js';

/** One `ankole` command: one file under `cli/commands/`, listed in the command table. */
export interface CliCommand {
  /** The word after `ankole`. */
  name: string;
  /** One line for `ankole --help`. */
  summary: string;
  /**
   * Runs the command with the arguments after its name; resolves with the exit code.
   * @throws CliError (or another UsageError) for a mistake the user can fix: printed as one sentence.
   */
  run(args: readonly string[], io: CliIO): Promise<number>;
}
