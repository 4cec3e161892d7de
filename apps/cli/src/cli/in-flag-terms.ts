import { CliError } from './cli-error.js';

/** Options of `inFlagTerms`. */
export interface InFlagTermsOptions {
  /** The command as the user typed it (`ankole schedules create`). */
  command: string;
  /** The control plane's operation behind it (`schedules.create`). */
  operation: string;
  /** Input field → the flag that sets it (`runAt` → `--at`). */
  flags: Readonly<Record<string, string>>;
}

/**
 * A control-plane input error reworded for the command line: the operation becomes the command and each input field
 * the flag that sets it (`runAt "tomorrow" is not …` → `--at "tomorrow" is not …`), so a message never names an
 * internal field. Anything else is returned unchanged.
 */
export function inFlagTerms(error: unknown, options: InFlagTermsOptions): unknown {
  if (!(error instanceof Error)) return error;
  const fields = error as Error & { code?: unknown; kind?: unknown };
  if (fields.kind !== 'usage' || typeof fields.code !== 'string' || fields.name === 'ControlPlaneNotFoundError') return error;
  let message = error.message.replace(`Invalid input to ${options.operation}:`, `Invalid options for \`${options.command}\`:`);
  for (const [field, flag] of Object.entries(options.flags)) message = message.replace(new RegExp(`(?<![\\w-])${field}(?![\\w-])`, 'g'), flag);
  if (message === error.message) return error;
  return new CliError(fields.code, message, { cause: error });
}
