import { existsSync } from 'node:fs';
import { ControlPlaneFailure, createHttpControlPlaneClient, type ControlPlaneChanges } from '@core/control-plane-client';
import { createControlPlane, type ControlPlane } from '@core/control-plane';
import { connectLocalSocket, localSocketPath, shareOnLocalSocket } from './local-socket.js';
import { CliError } from '../cli/cli-error.js';
import { redactDatabaseUrl, type ControlPlaneChoice } from './control-plane-choice.js';

/** Options of `openControlPlane`. */
export interface OpenControlPlaneOptions {
  /** Which control plane (`controlPlaneChoiceFromOptions`, `chooseControlPlane`). */
  choice: ControlPlaneChoice;
  /** The tuning variables. */
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
  /** Its changes, as they are committed (`--wait` and `--follow` wait on them). */
  changes: ControlPlaneChanges;
  /** The control plane itself, when this process opened the database. */
  local: ControlPlane | undefined;
  /** The local socket of the process holding the embedded database, when the client goes through it. */
  socketPath?: string | undefined;
  /** "PostgreSQL (schema ankole)" or "the embedded database in /path". */
  where: string;
}

/**
 * Opens the chosen control plane: an HTTP control plane (with the choice's token), a PostgreSQL server, or
 * the embedded PGlite database: through the local socket of the process holding it when there is one, else opened
 * here (created and migrated first when new, said through `onNotice`; with `share`, served on that socket while open). Tuning variables:
 * `ANKOLE_DB_SCHEMA`, `ANKOLE_LEASE_SECONDS`, `ANKOLE_MAINTENANCE_INTERVAL_SECONDS`, `ANKOLE_MIN_SCHEDULE_INTERVAL_SECONDS`.
 * @throws CliError for a malformed tuning variable; ControlPlaneFailure when the database cannot be opened.
 */
export async function openControlPlane(options: OpenControlPlaneOptions): Promise<OpenedControlPlane> {
  const { env, choice } = options;
  if (choice.kind === 'http') {
    const client = createHttpControlPlaneClient({ url: choice.url, token: choice.token });
    return { controlPlane: { client, close: () => client.close() }, changes: client.changes, local: undefined, where: `the control plane at ${choice.url}` };
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
    return { controlPlane, changes: controlPlane.changes, local: controlPlane, where: `PostgreSQL (${redactDatabaseUrl(choice.databaseUrl)}, schema ${schema})` };
  }
  const { dataDir } = choice;
  const opened = await openEmbedded(dataDir, common, options);
  if (opened.kind === 'socket') return { controlPlane: opened.remote, changes: opened.remote.changes, local: undefined, socketPath: localSocketPath(dataDir), where: `the embedded database in ${dataDir} (through the process holding it)` };
  const controlPlane = opened.controlPlane;
  if (!(options.share ?? options.background)) return { controlPlane, changes: controlPlane.changes, local: controlPlane, where: `the embedded database in ${dataDir}` };
  const shared = await shareOnLocalSocket(dataDir, controlPlane);
  return { controlPlane: shared, changes: controlPlane.changes, local: controlPlane, where: `the embedded database in ${dataDir}` };
}

/** How long a command waits for another process to let go of an embedded database folder, and when it says so. */
const LOCK_WAIT_MS = 120_000;
const LOCK_NOTICE_AFTER_MS = 1_000;
const LOCK_POLL_MS = 150;

/**
 * The embedded database of `dataDir`: through the local socket of the process holding it, else opened here (created and
 * migrated first when new). While another process holds the folder without a socket (a listing command, seconds at most),
 * waits for its lock or its socket, said once through `onNotice` after a second, for at most two minutes.
 * @throws ControlPlaneFailure (`database_in_use`) after two minutes, in one sentence; any other failure to open.
 */
async function openEmbedded(
  dataDir: string,
  common: Omit<Parameters<typeof createControlPlane>[0], 'dataDir' | 'databaseUrl'>,
  options: OpenControlPlaneOptions,
): Promise<{ kind: 'socket'; remote: Pick<ControlPlane, 'client' | 'changes' | 'close'> } | { kind: 'local'; controlPlane: ControlPlane }> {
  const started = Date.now();
  let saidCreating = false;
  let saidWaiting = false;
  for (;;) {
    // Another process holds the folder and shares it: talk to it over its local socket instead of being refused.
    const remote = await connectLocalSocket(dataDir);
    if (remote !== undefined) return { kind: 'socket', remote };
    // A fresh folder is created and migrated: seconds, tens of them on a busy machine; say so rather than seem stuck.
    if (!saidCreating && !existsSync(dataDir)) {
      options.onNotice?.(`Creating the embedded database in ${dataDir} (first use, a few seconds)…`);
      saidCreating = true;
    }
    try {
      return { kind: 'local', controlPlane: await createControlPlane({ dataDir, ...common }) };
    } catch (error) {
      if (!(error instanceof ControlPlaneFailure && error.code === 'database_in_use')) throw error;
    }
    const waited = Date.now() - started;
    if (waited >= LOCK_WAIT_MS) {
      throw new ControlPlaneFailure('database_in_use', `The embedded database ${dataDir} stayed in use by another process for ${LOCK_WAIT_MS / 60_000} minutes without sharing it; stop that process, or run \`ankole serve\` (or a worker) on the folder so commands share it.`);
    }
    if (!saidWaiting && waited >= LOCK_NOTICE_AFTER_MS) {
      options.onNotice?.(`Waiting for another ankole process to let go of the embedded database in ${dataDir}…`);
      saidWaiting = true;
    }
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
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
