import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createPGliteDriver } from '../pglite-driver.js';
import { testDatabaseUrl } from '../setup-test-postgres.js';
import type { SqlDriver } from '../sql-driver.js';

export { testDatabaseUrl };

/** A fresh place for one test's control plane: options to pass, and how to clean up. */
export interface TestDatabase {
  kind: 'postgres' | 'pglite';
  /** Options for `createControlPlane` pointing at a fresh, empty schema. */
  options(): { databaseUrl?: string; dataDir?: string; driver?: SqlDriver; schema: string };
  /** Drops the schemas / removes the folder. */
  cleanup(): Promise<void>;
}

/** A random schema name for one test. */
export function uniqueSchema(prefix = 't'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** A fresh schema on the test run's PostgreSQL server (`testDatabaseUrl`). */
export async function postgresTestDatabase(): Promise<TestDatabase> {
  const schema = uniqueSchema();
  const databaseUrl = testDatabaseUrl();
  return {
    kind: 'postgres',
    options: () => ({ databaseUrl, schema }),
    async cleanup() {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A fresh PGlite data folder (removed on cleanup). */
export async function pgliteTestDatabase(): Promise<TestDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ankole-pglite-'));
  return {
    kind: 'pglite',
    options: () => ({ dataDir, schema: 'ankole' }),
    cleanup: () => rm(dataDir, { recursive: true, force: true }),
  };
}

/** A fresh schema on a shared, in-memory PGlite driver (fast: one WASM start per test file). */
export async function sharedPGlite(): Promise<{ driver: SqlDriver; database(): TestDatabase; close(): Promise<void> }> {
  const driver = await createPGliteDriver();
  return {
    driver,
    database() {
      const schema = uniqueSchema();
      return {
        kind: 'pglite',
        options: () => ({ driver, schema }),
        cleanup: () => driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`).then(() => {}),
      };
    },
    close: () => driver.close(),
  };
}

/** Polls `check` until it returns a value other than `undefined`, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
