/** The rows a query returned. */
export interface SqlResult<TRow = Record<string, unknown>> {
  rows: TRow[];
  /** Rows inserted, updated or deleted (0 for a plain SELECT). */
  rowCount: number;
}

/** Runs statements on one connection (or inside one transaction). */
export interface SqlExecutor {
  /** One statement, with `$1`-style parameters. */
  query<TRow = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<TRow>>;
  /** Several statements without parameters; returns the last statement's rows. */
  exec<TRow = Record<string, unknown>>(text: string): Promise<SqlResult<TRow>>;
}

/**
 * The small database interface the control plane runs on: node-postgres (`createPostgresDriver`)
 * or embedded PGlite (`createPGliteDriver`). Both speak PostgreSQL.
 */
export interface SqlDriver extends SqlExecutor {
  /** `postgres` (a server, shared by many processes) or `pglite` (embedded, one process). */
  readonly kind: 'postgres' | 'pglite';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (executor: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Listens on a PostgreSQL notification channel (`LISTEN`; the payloads of `pg_notify(channel, payload)` once their
   * transaction commits, from any process on the database). `onLost` is called once when the listening connection
   * is lost (then listen again). Resolves once listening; the function it resolves to stops.
   */
  listen(channel: string, onNotification: (payload: string) => void, onLost: (error: unknown) => void): Promise<() => Promise<void>>;
  /** Closes the connections (or the embedded database). */
  close(): Promise<void>;
}
