import { AGENT_NAME_PATTERN } from '../cli/agent-home.js';
import { CliError } from '../cli/cli-error.js';
import type { CliIO } from '../cli/cli-io.js';
import { stringValue, type OptionTable, type ParsedCommandLine } from '../cli/parse-command-line.js';
import { chooseControlPlane, type ControlPlaneChoice } from './control-plane-choice.js';
import type { OpenedControlPlane } from './open-control-plane.js';

/** The options of every command that talks to the control plane. */
export const CONTROL_PLANE_OPTIONS = {
  'control-plane': { type: 'string' },
  token: { type: 'string' },
  'database-url': { type: 'string' },
  'data-dir': { type: 'string' },
} as const satisfies OptionTable;

/** Their help lines: the rule of `chooseControlPlane`, the same for every command. */
export const CONTROL_PLANE_OPTIONS_HELP = [
  '  --control-plane URL an HTTP control plane (`ankole serve`; default: ANKOLE_CONTROL_PLANE_URL)',
  '  --token TOKEN      its token (`ankole tokens create`; default: ANKOLE_CONTROL_PLANE_TOKEN)',
  '  --database-url URL else a PostgreSQL server (default: DATABASE_URL)',
  '  --data-dir DIR     else the embedded database in DIR (default: ANKOLE_DATA_DIR, else $XDG_DATA_HOME/ankole/pglite)',
];

/**
 * The control plane the options and environment describe: `chooseControlPlane` over `--control-plane`,
 * `--database-url` and `--data-dir` (the one place a command's options become a choice). With `databaseOnly`, an
 * HTTP control plane (`--control-plane`, ANKOLE_CONTROL_PLANE_URL) is left out: `ankole serve` and `ankole tokens`
 * open the database itself.
 */
export function controlPlaneChoiceFromOptions(values: ParsedCommandLine['values'], io: Pick<CliIO, 'env' | 'cwd'>, options: { databaseOnly?: boolean } = {}): ControlPlaneChoice {
  const databaseOnly = options.databaseOnly === true;
  return chooseControlPlane({
    controlPlaneUrl: databaseOnly ? undefined : stringValue(values, 'control-plane'),
    token: stringValue(values, 'token'),
    databaseUrl: stringValue(values, 'database-url'),
    dataDir: stringValue(values, 'data-dir'),
    env: databaseOnly ? { ...io.env, ANKOLE_CONTROL_PLANE_URL: undefined } : io.env,
    cwd: io.cwd,
  });
}

/** Opens the control plane the options and environment describe (its packages are loaded here, when one is opened). */
export function openFromOptions(values: ParsedCommandLine['values'], io: CliIO, background: boolean, onError?: (error: unknown) => void): Promise<OpenedControlPlane> {
  return openChosenControlPlane(controlPlaneChoiceFromOptions(values, io), io, background, onError);
}

/** Opens the database the options and environment describe, never an HTTP control plane (`ankole serve`, `ankole tokens`). */
export function openDatabase(values: ParsedCommandLine['values'], io: CliIO, background: boolean, onError?: (error: unknown) => void): Promise<OpenedControlPlane> {
  return openChosenControlPlane(controlPlaneChoiceFromOptions(values, io, { databaseOnly: true }), io, background, onError);
}

/** Opens a chosen control plane, saying on stderr what takes a while (its packages are loaded here). */
export async function openChosenControlPlane(choice: ControlPlaneChoice, io: CliIO, background: boolean, onError?: (error: unknown) => void): Promise<OpenedControlPlane> {
  const { openControlPlane } = await import('./open-control-plane.js');
  return openControlPlane({
    choice,
    env: io.env,
    background,
    onNotice: (text) => io.stderr.write(`ankole: ${text}\n`),
    ...(onError === undefined ? {} : { onError }),
  });
}

/**
 * The `--agent` option (default `default`).
 * @throws CliError when it is not a valid agent name.
 */
export function agentOption(values: ParsedCommandLine['values']): string {
  const agent = stringValue(values, 'agent') ?? 'default';
  if (!AGENT_NAME_PATTERN.test(agent)) {
    throw new CliError('agent_invalid', `The agent name "${agent}" is not valid: use letters, digits, "_" and "-" (1 to 64 characters).`);
  }
  return agent;
}

/** Rows as aligned columns under a header. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((cells) => cells[column]?.length ?? 0)));
  return [header, ...rows].map((cells) => cells.map((text, column) => text.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n');
}
