/*
 * Test support for packages that build on the control plane (imported as `@core/control-plane/testing`, never
 * by production code): control planes on fresh schemas of a real PostgreSQL server or of an in-memory PGlite.
 */
import { randomBytes } from 'node:crypto';
import { createControlPlane, type ControlPlane, type ControlPlaneOptions } from './create-control-plane.js';
import { createPGliteDriver } from './pglite-driver.js';
import { testDatabaseUrl } from './setup-test-postgres.js';
import type { SqlDriver } from './sql-driver.js';
import pg from 'pg';

export { setupTestPostgres, testDatabaseUrl } from './setup-test-postgres.js';
export { startTestPostgres } from './start-test-postgres.js';
export type { TestPostgres } from './start-test-postgres.js';

/** What `controlPlanes` returns. */
export interface TestControlPlanes {
  /** A control plane on a new schema (`background: false` unless overridden). */
  open(options?: Partial<ControlPlaneOptions>): Promise<ControlPlane>;
  /** Closes the opened control planes and drops their schemas. */
  cleanup(): Promise<void>;
  /** Closes the shared PGlite instance, if one was made. */
  close(): Promise<void>;
}

/** Opens control planes on fresh schemas of the real PostgreSQL server or of one in-memory PGlite, and removes them. */
export function controlPlanes(kind: 'postgres' | 'pglite'): TestControlPlanes {
  const databaseUrl = kind === 'postgres' ? testDatabaseUrl() : '';
  let pglite: SqlDriver | undefined;
  const schemas: string[] = [];
  const planes: ControlPlane[] = [];
  return {
    async open(options: Partial<ControlPlaneOptions> = {}): Promise<ControlPlane> {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      schemas.push(schema);
      if (kind === 'pglite') pglite ??= await createPGliteDriver();
      const plane = await createControlPlane({
        ...(kind === 'postgres' ? { databaseUrl } : { driver: pglite! }),
        schema,
        background: false,
        ...options,
      });
      planes.push(plane);
      return plane;
    },
    async cleanup(): Promise<void> {
      for (const plane of planes.splice(0)) await plane.close();
      const drop = schemas.splice(0).map((schema) => `DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_queue CASCADE;`).join('\n');
      if (drop === '') return;
      if (pglite !== undefined) {
        await pglite.exec(drop);
        return;
      }
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(drop).finally(() => client.end());
    },
    async close(): Promise<void> {
      await pglite?.close();
    },
  };
}

/**
 * `planes`, with every control plane it opens passed through `wrap` (for instance served over HTTP, with `client`
 * an HTTP client and `close` stopping the server too); `cleanup` closes the wrapped ones first.
 */
export function wrapControlPlanes(planes: TestControlPlanes, wrap: (plane: ControlPlane) => Promise<ControlPlane>): TestControlPlanes {
  const wrapped: ControlPlane[] = [];
  return {
    async open(options) {
      const plane = await wrap(await planes.open(options));
      wrapped.push(plane);
      return plane;
    },
    async cleanup() {
      for (const plane of wrapped.splice(0)) await plane.close();
      await planes.cleanup();
    },
    close: () => planes.close(),
  };
}
