import pg from 'pg';
import type { SqlDriver, SqlExecutor, SqlResult } from './sql-driver.js';

/** Options of `createPostgresDriver`. */
export interface PostgresDriverOptions {
  /** A `postgres://` URL, e.g. the `DATABASE_URL` environment variable. */
  connectionString: string;
  /** Most connections in the pool (default 10). */
  maxConnections?: number;
  /** The `application_name` the server sees (default `ankole`). */
  applicationName?: string;
}

/**
 * A `SqlDriver` on a PostgreSQL server through a node-postgres pool. Connects lazily, on the first query.
 */
export function createPostgresDriver(options: PostgresDriverOptions): SqlDriver {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    application_name: options.applicationName ?? 'ankole',
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  let closed = false;

  const executor = (client: pg.Pool | pg.PoolClient): SqlExecutor => ({
    async query<TRow>(text: string, params?: readonly unknown[]) {
      const result = await client.query(text, params === undefined ? undefined : [...params]);
      return { rows: result.rows as TRow[], rowCount: result.rowCount ?? 0 };
    },
    async exec<TRow>(text: string) {
      const result = (await client.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
      const last = Array.isArray(result) ? result.at(-1) : result;
      return { rows: (last?.rows ?? []) as TRow[], rowCount: last?.rowCount ?? 0 } satisfies SqlResult<TRow>;
    },
  });
  const poolExecutor = executor(pool);

  return {
    kind: 'postgres',
    query: poolExecutor.query,
    exec: poolExecutor.exec,
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(executor(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
