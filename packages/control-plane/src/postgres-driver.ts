import pg from 'pg';
import { ControlPlaneInputError } from '@core/control-plane-client';
import type { SqlDriver, SqlExecutor, SqlResult } from './sql-driver.js';

/** Options of `createPostgresDriver`. */
export interface PostgresDriverOptions {
  /** A `postgres://` URL, e.g. the `DATABASE_URL` environment variable. */
  connectionString: string;
  /** Most connections in the pool (default 10). */
  maxConnections?: number;
  /** The `application_name` the server sees (default `ankole`). */
  applicationName?: string;
  /** Give up connecting after this long, in ms, instead of waiting forever on a server that does not answer (default 10 000). */
  connectTimeoutMs?: number;
}

/**
 * A `SqlDriver` on a PostgreSQL server through a node-postgres pool. Connects lazily, on the first query
 * (which fails after `connectTimeoutMs` when the server does not answer).
 * @throws ControlPlaneInputError (`database_url_invalid`) when the connection string is not a `postgres://` URL.
 */
export function createPostgresDriver(options: PostgresDriverOptions): SqlDriver {
  const connectionString = checkDatabaseUrl(options.connectionString);
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? 10,
    application_name: options.applicationName ?? 'ankole',
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
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
    async listen(channel, onNotification, onLost) {
      // A connection of its own (not the pool's): LISTEN lasts as long as the session.
      const client = new pg.Client({
        connectionString,
        application_name: `${options.applicationName ?? 'ankole'}-listen`,
        connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
        keepAlive: true,
      });
      let stopped = false;
      const lost = (error: unknown) => {
        if (stopped) return;
        stopped = true;
        client.end().catch(() => {});
        onLost(error);
      };
      client.on('error', lost);
      client.on('end', () => lost(new Error('The notification connection ended.')));
      client.on('notification', (message) => {
        if (message.channel === channel) onNotification(message.payload ?? '');
      });
      try {
        await client.connect();
        await client.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
      } catch (error) {
        stopped = true;
        await client.end().catch(() => {});
        throw error;
      }
      return async () => {
        if (stopped) return;
        stopped = true;
        await client.end().catch(() => {});
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

function checkDatabaseUrl(url: string): string {
  if (!/^postgres(ql)?:\/\//i.test(url.trim())) {
    throw new ControlPlaneInputError(
      'database_url_invalid',
      'The database URL (DATABASE_URL) is not a PostgreSQL URL: use postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, e.g. postgres://postgres@127.0.0.1:5432/ankole.',
      { field: 'databaseUrl' },
    );
  }
  return url;
}
