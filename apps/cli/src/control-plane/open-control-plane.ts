import { ControlPlaneFailure, createHttpControlPlaneClient } from '@core/control-plane-client';
import { createControlPlane, type ControlPlane } from '@core/control-plane';
import { connectLocalSocket, localSocketPath, shareOnLocalSocket } from './local-socket.js';
import { CliError } from '../cli/cli-error.js';
import { redactDatabaseUrl, type ControlPlaneChoice } from './control-plane-choice.js';

/** Options of `openControlPlane`. */
export interface OpenControlPlaneOptions {
  /** Which control plane (`controlPlaneChoiceFromOptions`, `chooseControlPlane`). */
  choice: ControlPlaneChoice;
  /** The token of an HTTP control plane (`ANKOLE_CONTROL_PLANE_TOKEN`) and the tuning variables. */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * On the embedded database, serve the control plane on its local socket (`<data-dir>.sock`, mode 0600) while it is open,
   * so other `ankole` commands on the folder use this process (default: `background`, i.e. a worker or `ankole serve`).
   */
  share?: boolean | undefined;
  /** Run the background duties (fire schedules, expire lost claims): a worker does, a listing command does not. */
  background: boolean;
  onError?: (error: unknown) => void;
  /** Told what takes a while before it starts (creating a fresh embedded database): one line, for stderr. */
  onNotice?: (text: string) => void;
}

/** Where the control plane of `openControlPlane` keeps its data, in words. */
export interface OpenedControlPlane {
  /** The client and how to let go of it (an HTTP client when the control plane is remote or held by another process). */
  controlPlane: Pick<ControlPlane, 'client' | 'close'>;
  /** The control plane itself, when this process opened the database. */
  local: ControlPlane | undefined;
  /** The local socket of the process holding the embedded database, when the client goes through it. */
  socketPath?: string | undefined;
  /** "PostgreSQL (schema ankole)" or "the embedded database in /path". */
  where: string;
}

/**
 * Opens the chosen control plane: an HTTP control plane (token `ANKOLE_CONTROL_PLANE_TOKEN`), a PostgreSQL server, or
 * the embedded PGlite database: through the local socket of the process holding it when there is one, else opened
 * here (created and migrated first when new, said through `onNotice`; with `share`, served on that socket while open). Tuning variables:
 * `ANKOLE_DB_SCHEMA`, `ANKOLE_LEASE_SECONDS`, `ANKOLE_MAINTENANCE_INTERVAL_SECONDS`, `ANKOLE_MIN_SCHEDULE_INTERVAL_SECONDS`.
 * @throws CliError for a malformed tuning variable; ControlPlaneFailure when the database cannot be opened.
 */
export async function openControlPlane(options: OpenControlPlaneOptions): Promise<OpenedControlPlane> {
  const { env, choice } = options;
  if (choice.kind === 'http') {
    const client = createHttpControlPlaneClient({ url: choice.url, token: nonEmpty(env.ANKOLE_CONTROL_PLANE_TOKEN) });
    return { controlPlane: { client, close: () => client.close() }, local: undefined, where: `the control plane at ${choice.url}` };
  }
  const schema = nonEmpty(env.ANKOLE_DB_SCHEMA) ?? 'ankole';
  const tuning = {
    ...seconds(env, 'ANKOLE_LEASE_SECONDS', 'leaseSeconds'),
    ...seconds(env, 'ANKOLE_MAINTENANCE_INTERVAL_SECONDS', 'maintenanceIntervalSeconds'),
    ...seconds(env, 'ANKOLE_MIN_SCHEDULE_INTERVAL_SECONDS', 'minScheduleIntervalSeconds'),
  };
  const common = { schema, background: options.background, ...tuning, ...(options.onError === undefined ? {} : { onError: options.onError }) };
  if (choice.kind === 'postgres') {
    const controlPlane = await createControlPlane({ databaseUrl: choice.databaseUrl, ...common });
    return { controlPlane, local: controlPlane, where: `PostgreSQL (${redactDatabaseUrl(choice.databaseUrl)}, schema ${schema})` };
  }
  const { dataDir } = choice;
  // Another process holds the folder: talk to it over its local socket instead of being refused.
  const remote = await connectLocalSocket(dataDir);
  if (remote !== undefined) return { controlPlane: remote, local: undefined, socketPath: localSocketPath(dataDir), where: `the embedded database in ${dataDir} (through the process holding it)` };
  // A fresh folder is created and migrated: seconds, tens of them on a busy machine; say so rather than seem stuck.
  if (!choice.exists) options.onNotice?.(`Creating the embedded database in ${dataDir} (first use, a few seconds)…`);
  let controlPlane: ControlPlane;
  try {
    controlPlane = await createControlPlane({ dataDir, ...common });
  } catch (error) {
    // The holder may be starting: its socket follows its lock within moments.
    if (!(error instanceof ControlPlaneFailure && error.code === 'database_in_use')) throw error;
    for (let waited = 0; waited < 10_000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const late = await connectLocalSocket(dataDir);
      if (late !== undefined) return { controlPlane: late, local: undefined, socketPath: localSocketPath(dataDir), where: `the embedded database in ${dataDir} (through the process holding it)` };
    }
    throw error;
  }
  if (!(options.share ?? options.background)) return { controlPlane, local: controlPlane, where: `the embedded database in ${dataDir}` };
  const shared = await shareOnLocalSocket(dataDir, controlPlane);
  return { controlPlane: shared, local: controlPlane, where: `the embedded database in ${dataDir}` };
}

function seconds(env: OpenControlPlaneOptions['env'], name: string, option: string): Record<string, number> {
  const text = nonEmpty(env[name]);
  if (text === undefined) return {};
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new CliError('environment_invalid', `${name} must be a positive number of seconds, got "${text}".`);
  return { [option]: value };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
