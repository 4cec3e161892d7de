import { UsageError } from '@core/runtime';
import { EXIT_CODES } from './exit-codes.js';

export { EXIT_CODES } from './exit-codes.js';

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
