import { randomBytes } from 'node:crypto';
import { createControlPlane, createPGliteDriver, type ControlPlane, type ControlPlaneOptions, type SqlDriver } from '@core/control-plane';
import pg from 'pg';

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Opens control planes on fresh schemas of the real PostgreSQL server or of one in-memory PGlite, and removes them. */
export function controlPlanes(kind: 'postgres' | 'pglite') {
  let pglite: SqlDriver | undefined;
  const schemas: string[] = [];
  const planes: ControlPlane[] = [];
  return {
    async open(options: Partial<ControlPlaneOptions> = {}): Promise<ControlPlane> {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      schemas.push(schema);
      if (kind === 'pglite') pglite ??= await createPGliteDriver();
      const plane = await createControlPlane({
        ...(kind === 'postgres' ? { databaseUrl: DATABASE_URL } : { driver: pglite! }),
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
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(drop).finally(() => client.end());
    },
    async close(): Promise<void> {
      await pglite?.close();
    },
  };
}
