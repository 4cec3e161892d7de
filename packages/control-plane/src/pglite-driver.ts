import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { makePrivateFolder, makeTreePrivate } from './private-folder.js';
import type { SqlDriver, SqlExecutor, SqlResult } from './sql-driver.js';

/** Options of `createPGliteDriver`. */
export interface PGliteDriverOptions {
  /** The folder holding the database (created when missing). Omit for an in-memory database. */
  dataDir?: string;
}

interface PGliteLike {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>;
  exec(text: string): Promise<Array<{ rows: unknown[]; affectedRows?: number }>>;
}

/**
 * A `SqlDriver` on embedded PGlite (PostgreSQL compiled to WASM, in this process). One process
 * at a time may open a data folder (a `<dataDir>.lock` file holds it); use a PostgreSQL server to
 * share a database between processes. The folder is made private whatever the umask: 0700 (so are the folders
 * created above it), its files 0600 once opened (files PGlite adds later sit inside the 0700 folder), the lock 0600.
 * @throws ControlPlaneFailure (`database_in_use`) when another running process has the folder open.
 */
export async function createPGliteDriver(options: PGliteDriverOptions = {}): Promise<SqlDriver> {
  const { PGlite } = await import('@electric-sql/pglite');
  let lock: DataDirLock | undefined;
  if (options.dataDir !== undefined) {
    // Prompts, transcripts and Brain pages live here: the folder (and the folders made above it) 0700, its files 0600.
    await makePrivateFolder(options.dataDir);
    lock = await lockDataDir(options.dataDir);
  }
  let database;
  try {
    database = options.dataDir === undefined ? await PGlite.create() : await PGlite.create(options.dataDir);
  } catch (error) {
    await lock?.release();
    throw error;
  }
  if (options.dataDir !== undefined) {
    const opened = database;
    await makeTreePrivate(options.dataDir).catch(async (error: unknown) => {
      await opened.close();
      await lock?.release();
      throw error;
    });
  }
  let closed = false;

  const executor = (target: PGliteLike): SqlExecutor => ({
    async query<TRow>(text: string, params?: readonly unknown[]) {
      const result = await target.query<TRow>(text, params === undefined ? undefined : [...params]);
      return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
    },
    async exec<TRow>(text: string) {
      const results = await target.exec(text);
      const last = results.at(-1);
      return { rows: (last?.rows ?? []) as TRow[], rowCount: last?.affectedRows ?? 0 } satisfies SqlResult<TRow>;
    },
  });
  const main = executor(database as unknown as PGliteLike);

  return {
    kind: 'pglite',
    query: main.query,
    exec: main.exec,
    transaction(work) {
      return database.transaction((transaction) => work(executor(transaction as unknown as PGliteLike)));
    },
    async listen(channel, onNotification) {
      // In this process: PGlite delivers a notification after the statement (or the transaction) that sent it.
      const unlisten = await database.listen(channel, onNotification);
      return async () => {
        if (!closed) await unlisten();
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await database.close();
      await lock?.release();
    },
  };
}
