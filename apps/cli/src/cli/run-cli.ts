import { createRequire } from 'node:module';
import { EXIT_CODES } from './exit-codes.js';
import type { CliIO } from './cli-io.js';
import { COMMANDS } from './commands/index.js';
import { hoistGlobalOptions } from './global-options.js';
import { forPeople } from './human-wording.js';
import { closestMatch } from './suggest.js';

function version(): string {
  const require = createRequire(import.meta.url);
  return (require('../package.json') as { version: string }).version;
}

function help(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    'Usage: ankole <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'The control plane (schedules, jobs, workflows, approvals, Brain) is chosen the same way by every command;',
    'the first that is given wins:',
    '  --control-plane URL  or ANKOLE_CONTROL_PLANE_URL  an `ankole serve` (token: ANKOLE_CONTROL_PLANE_TOKEN)',
    '  --database-url URL   or DATABASE_URL              a PostgreSQL server',
    '  --data-dir DIR       or ANKOLE_DATA_DIR           the embedded database in DIR',
    '  otherwise                                          the embedded database in $XDG_DATA_HOME/ankole/pglite',
    'While `ankole worker` or `ankole serve` holds an embedded database, the other commands reach it through',
    '<DIR>.sock. `ankole run` and `ankole tools` open it only when a tool is called, and the default one only',
    'once it exists (or with --brain).',
    '',
    'Run `ankole <command> --help` for its options.',
    '',
  ].join('\n');
}

/**
 * Runs the `ankole` command line and resolves with the exit code. Mistakes a user can make (a bad flag,
 * a missing home, a refused key) become one sentence on stderr, never a stack trace.
 */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...args] = hoistGlobalOptions(argv);
  // `ankole help run`: that command's help.
  const helpOf = name === 'help' && args.length === 1 ? COMMANDS.find((candidate) => candidate.name === args[0]) : undefined;
  if (helpOf !== undefined) return helpOf.run(['--help'], io).catch((error: unknown) => report(error, io));
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    (name === undefined ? io.stderr : io.stdout).write(help());
    return name === undefined ? EXIT_CODES.usage : EXIT_CODES.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${version()}\n`);
    return EXIT_CODES.ok;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command === undefined) {
    const names = COMMANDS.map((entry) => entry.name);
    const match = closestMatch(name, names);
    const hint = match === undefined ? '' : ` (did you mean ${match}?)`;
    io.stderr.write(`ankole: Unknown command "${name}"${hint}: the commands are ${names.join(', ')} (see \`ankole --help\`).\n`);
    return EXIT_CODES.usage;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    return report(error, io);
  }
}

/** The fields of an `AnkoleError` (`CliError` adds `exitCode`), checked by shape so `--help` need not load the runtime. */
interface KnownError {
  message: string;
  code: string;
  kind: 'usage' | 'runtime';
  exitCode?: number;
}

function isKnownError(error: unknown): error is KnownError {
  if (!(error instanceof Error)) return false;
  const fields = error as unknown as Record<string, unknown>;
  return typeof fields.code === 'string' && (fields.kind === 'usage' || fields.kind === 'runtime');
}

function report(error: unknown, io: CliIO): number {
  if (isKnownError(error)) {
    io.stderr.write(`ankole: ${forPeople(error.message)}\n`);
    if (typeof error.exitCode === 'number') return error.exitCode;
    return error.kind === 'usage' ? EXIT_CODES.usage : EXIT_CODES.failure;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`ankole: Unexpected failure: ${message} (set ANKOLE_DEBUG=1 to see the stack trace).\n`);
  if (io.env.ANKOLE_DEBUG !== undefined && io.env.ANKOLE_DEBUG !== '' && error instanceof Error) io.stderr.write(`${error.stack ?? ''}\n`);
  return EXIT_CODES.failure;
}
