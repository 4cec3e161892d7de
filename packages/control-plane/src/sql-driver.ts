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
  /** Closes the connections (or the embedded database). */
  close(): Promise<void>;
}
