import { UsageError } from '@core/runtime';

/** Exit codes the CLI uses. */
export const EXIT_CODES = Object.freeze({
  ok: 0,
  /** The turn ran but failed (model endpoint error, step limit, cut-off response). */
  failure: 1,
  /** The command line was wrong (unknown flag, missing value, bad home). */
  usage: 2,
  /** Interrupted by Ctrl-C (128 + SIGINT). */
  interrupted: 130,
});

/**
 * An error a user caused (a bad flag, a missing home, an unreachable or refusing model endpoint). The CLI
 * prints its message, one sentence, and exits with `exitCode`; never a stack trace.
 */
export class CliError extends UsageError {
  readonly exitCode: number;

  constructor(code: string, message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(code, message, options.cause === undefined ? {} : { cause: options.cause });
    this.exitCode = options.exitCode ?? EXIT_CODES.usage;
  }
}
