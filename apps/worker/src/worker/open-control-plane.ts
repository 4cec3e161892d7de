import { createControlPlane, defaultDataDir, type ControlPlane } from '@core/control-plane';
import path from 'node:path';
import { CliError } from '../cli/cli-error.js';

/** Options of `openControlPlane`. */
export interface OpenControlPlaneOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** A PostgreSQL URL (`--database-url`); default `DATABASE_URL`. */
  databaseUrl?: string | undefined;
  /** The embedded database's folder (`--data-dir`); default `ANKOLE_DATA_DIR`, else `$XDG_DATA_HOME/ankole/pglite`. */
  dataDir?: string | undefined;
  /** Resolves a relative `dataDir`. */
  cwd: string;
  /** Run the background duties (fire schedules, expire lost claims): a worker does, a listing command does not. */
  background: boolean;
  onError?: (error: unknown) => void;
}

/** Where the control plane of `openControlPlane` keeps its data, in words. */
export interface OpenedControlPlane {
  controlPlane: ControlPlane;
  /** "PostgreSQL (schema ankole)" or "the embedded database in /path". */
  where: string;
}

/**
 * Opens the control plane the environment describes: a PostgreSQL server when `DATABASE_URL` (or
 * `--database-url`) is set, else the embedded PGlite database. Tuning variables: `ANKOLE_DB_SCHEMA`,
 * `ANKOLE_LEASE_SECONDS`, `ANKOLE_MAINTENANCE_INTERVAL_SECONDS`, `ANKOLE_MIN_SCHEDULE_INTERVAL_SECONDS`.
 * @throws CliError for a malformed tuning variable; ControlPlaneFailure when the database cannot be opened.
 */
export async function openControlPlane(options: OpenControlPlaneOptions): Promise<OpenedControlPlane> {
  const { env } = options;
  const databaseUrl = nonEmpty(options.databaseUrl) ?? nonEmpty(env.DATABASE_URL);
  const schema = nonEmpty(env.ANKOLE_DB_SCHEMA) ?? 'ankole';
  const tuning = {
    ...seconds(env, 'ANKOLE_LEASE_SECONDS', 'leaseSeconds'),
    ...seconds(env, 'ANKOLE_MAINTENANCE_INTERVAL_SECONDS', 'maintenanceIntervalSeconds'),
    ...seconds(env, 'ANKOLE_MIN_SCHEDULE_INTERVAL_SECONDS', 'minScheduleIntervalSeconds'),
  };
  const common = { schema, background: options.background, ...tuning, ...(options.onError === undefined ? {} : { onError: options.onError }) };
  if (databaseUrl !== undefined) {
    const controlPlane = await createControlPlane({ databaseUrl, ...common });
    return { controlPlane, where: `PostgreSQL (${redact(databaseUrl)}, schema ${schema})` };
  }
  const dataDir = path.resolve(options.cwd, nonEmpty(options.dataDir) ?? nonEmpty(env.ANKOLE_DATA_DIR) ?? defaultDataDir(env));
  const controlPlane = await createControlPlane({ dataDir, ...common });
  return { controlPlane, where: `the embedded database in ${dataDir}` };
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

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL';
  }
}
