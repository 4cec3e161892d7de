import { AGENT_NAME_PATTERN } from '../../cli/agent-home.js';
import { CliError } from '../../cli/cli-error.js';
import type { CliIO } from '../../cli/cli-io.js';
import { stringValue, type OptionTable, type ParsedCommandLine } from '../../cli/parse-command-line.js';
import type { OpenedControlPlane } from '../open-control-plane.js';

/** The options of every command that talks to the control plane. */
export const CONTROL_PLANE_OPTIONS = {
  'control-plane': { type: 'string' },
  'database-url': { type: 'string' },
  'data-dir': { type: 'string' },
} as const satisfies OptionTable;

/** Their help lines: the rule of `chooseControlPlane`, the same for every command. */
export const CONTROL_PLANE_OPTIONS_HELP = [
  '  --control-plane URL an HTTP control plane (`ankole serve`; default: ANKOLE_CONTROL_PLANE_URL, token ANKOLE_CONTROL_PLANE_TOKEN)',
  '  --database-url URL else a PostgreSQL server (default: DATABASE_URL)',
  '  --data-dir DIR     else the embedded database in DIR (default: ANKOLE_DATA_DIR, else $XDG_DATA_HOME/ankole/pglite)',
];

/** Opens the control plane the options and environment describe (its packages are loaded here, when one is opened). */
export async function openFromOptions(values: ParsedCommandLine['values'], io: CliIO, background: boolean, onError?: (error: unknown) => void): Promise<OpenedControlPlane> {
  const { openControlPlane } = await import('../open-control-plane.js');
  return openControlPlane({
    env: io.env,
    cwd: io.cwd,
    background,
    controlPlaneUrl: stringValue(values, 'control-plane'),
    databaseUrl: stringValue(values, 'database-url'),
    dataDir: stringValue(values, 'data-dir'),
    onNotice: (text) => io.stderr.write(`ankole: ${text}\n`),
    ...(onError === undefined ? {} : { onError }),
  });
}

/** Opens the database the options and environment describe, never an HTTP control plane (`ankole serve`, `ankole tokens`). */
export async function openDatabase(values: ParsedCommandLine['values'], io: CliIO, background: boolean, onError?: (error: unknown) => void): Promise<OpenedControlPlane> {
  const { openControlPlane } = await import('../open-control-plane.js');
  return openControlPlane({
    env: { ...io.env, ANKOLE_CONTROL_PLANE_URL: undefined },
    cwd: io.cwd,
    background,
    databaseUrl: stringValue(values, 'database-url'),
    dataDir: stringValue(values, 'data-dir'),
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
