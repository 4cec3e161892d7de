import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error.js';
import { didYouMean } from './suggest.js';

/** The option table of a command, as `node:util` `parseArgs` takes it. */
export type OptionTable = NonNullable<ParseArgsConfig['options']>;

/** Parsed values and positionals. */
export interface ParsedCommandLine {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/**
 * Parses a command's arguments strictly.
 * @throws CliError (exit code 2) naming the bad option and how to get help.
 */
export function parseCommandLine(command: string, args: readonly string[], options: OptionTable): ParsedCommandLine {
  try {
    const { values, positionals } = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    return { values: values as ParsedCommandLine['values'], positionals };
  } catch (error) {
    const message = (error as Error).message;
    const code = (error as { code?: string }).code;
    const option = /'(-[^']*)'/.exec(message)?.[1];
    const help = `see \`ankole ${command} --help\``;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const hint = option === undefined ? '' : didYouMean(option, Object.keys(options).map((name) => `--${name}`));
      throw new CliError('option_unknown', `Unknown option ${option ?? ''} for \`ankole ${command}\`: ${help}.${hint}`, { cause: error });
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      throw new CliError('option_invalid', `Option ${option ?? ''} of \`ankole ${command}\` needs a value: ${help}.`, { cause: error });
    }
    throw new CliError('arguments_invalid', `Invalid arguments for \`ankole ${command}\` (${message.split('.')[0]}): ${help}.`, { cause: error });
  }
}

/** A string option's value (the last one when repeated). */
export function stringValue(values: ParsedCommandLine['values'], name: string): string | undefined {
  const value = values[name];
  if (Array.isArray(value)) return value.at(-1);
  return typeof value === 'string' ? value : undefined;
}

/** A repeatable string option's values. */
export function stringValues(values: ParsedCommandLine['values'], name: string): string[] {
  const value = values[name];
  if (Array.isArray(value)) return value;
  return typeof value === 'string' ? [value] : [];
}

/**
 * A positive whole number option.
 * @throws CliError when it is not one.
 */
export function positiveInteger(values: ParsedCommandLine['values'], name: string, command: string): number | undefined {
  const text = stringValue(values, name);
  if (text === undefined) return undefined;
  const number = Number(text);
  if (!Number.isInteger(number) || number < 1) {
    throw new CliError('option_invalid', `--${name} of \`ankole ${command}\` must be a whole number of 1 or more, got "${text}".`);
  }
  return number;
}
