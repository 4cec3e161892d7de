import { existsSync } from 'node:fs';
import path from 'node:path';
import { userDataDir } from '../cli/agent-home.js';

/** Where a command's control plane is, and which option or variable said so. */
export type ControlPlaneChoice =
  | {
      kind: 'http';
      url: string;
      source: '--control-plane' | 'ANKOLE_CONTROL_PLANE_URL';
      /** Its bearer token: `--token`, else ANKOLE_CONTROL_PLANE_TOKEN (none on a server that needs none). */
      token?: string | undefined;
    }
  | { kind: 'postgres'; databaseUrl: string; source: '--database-url' | 'DATABASE_URL' }
  | {
      kind: 'embedded';
      /** Absolute. */
      dataDir: string;
      source: '--data-dir' | 'ANKOLE_DATA_DIR' | 'default';
      /** Whether the folder exists already (a fresh one is created and migrated at first use, which takes seconds). */
      exists: boolean;
    };

/** Options of `chooseControlPlane`: the command's options as given (undefined when not given) and the environment. */
export interface ChooseControlPlaneOptions {
  controlPlaneUrl?: string | undefined;
  /** The HTTP control plane's token (`--token`; default ANKOLE_CONTROL_PLANE_TOKEN). */
  token?: string | undefined;
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  /** Resolves a relative data dir. */
  cwd: string;
}

/**
 * The one rule every `ankole` command follows to find its control plane, first match wins:
 * `--control-plane URL` / `ANKOLE_CONTROL_PLANE_URL` (an `ankole serve`; token `--token` / `ANKOLE_CONTROL_PLANE_TOKEN`), then `--database-url URL` / `DATABASE_URL`
 * (PostgreSQL), then `--data-dir DIR` / `ANKOLE_DATA_DIR`, else the default embedded database
 * `$XDG_DATA_HOME/ankole/pglite` (`~/.local/share/ankole/pglite`). Options beat variables; empty values count as unset.
 * Opens nothing: `openControlPlane` does, and `ankole run` decides from this whether (and when) to.
 */
export function chooseControlPlane(options: ChooseControlPlaneOptions): ControlPlaneChoice {
  const { env } = options;
  const token = nonEmpty(options.token) ?? nonEmpty(env.ANKOLE_CONTROL_PLANE_TOKEN);
  const url = nonEmpty(options.controlPlaneUrl);
  if (url !== undefined) return { kind: 'http', url, source: '--control-plane', token };
  const urlFromEnv = nonEmpty(env.ANKOLE_CONTROL_PLANE_URL);
  if (urlFromEnv !== undefined) return { kind: 'http', url: urlFromEnv, source: 'ANKOLE_CONTROL_PLANE_URL', token };
  const databaseUrl = nonEmpty(options.databaseUrl);
  if (databaseUrl !== undefined) return { kind: 'postgres', databaseUrl, source: '--database-url' };
  const databaseUrlFromEnv = nonEmpty(env.DATABASE_URL);
  if (databaseUrlFromEnv !== undefined) return { kind: 'postgres', databaseUrl: databaseUrlFromEnv, source: 'DATABASE_URL' };
  const given = nonEmpty(options.dataDir);
  const fromEnv = nonEmpty(env.ANKOLE_DATA_DIR);
  const source = given !== undefined ? '--data-dir' : fromEnv !== undefined ? 'ANKOLE_DATA_DIR' : 'default';
  const dataDir = path.resolve(options.cwd, given ?? fromEnv ?? defaultEmbeddedDataDir(env));
  return { kind: 'embedded', dataDir, source, exists: existsSync(dataDir) };
}

/**
 * The default embedded database folder: `$XDG_DATA_HOME/ankole/pglite`, else `~/.local/share/ankole/pglite` (the same
 * as `defaultDataDir` of `@core/control-plane`, computed here so choosing does not load the control plane).
 */
export function defaultEmbeddedDataDir(env: Readonly<Record<string, string | undefined>>): string {
  return path.join(userDataDir(env), 'ankole', 'pglite');
}

/** The choice in words: "the control plane at URL", "PostgreSQL (URL)", "the embedded database in DIR". */
export function describeControlPlaneChoice(choice: ControlPlaneChoice): string {
  if (choice.kind === 'http') return `the control plane at ${choice.url}`;
  if (choice.kind === 'postgres') return `PostgreSQL (${redactDatabaseUrl(choice.databaseUrl)})`;
  return `the embedded database in ${choice.dataDir}`;
}

/** A database URL with its password replaced by `***`, for messages. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL';
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
