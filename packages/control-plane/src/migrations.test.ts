import { afterEach, describe, expect, it } from 'vitest';
import { createControlPlane } from './create-control-plane.js';
import { checkSchemaName, migrate, MIGRATIONS } from './migrations.js';
import { createPGliteDriver } from './pglite-driver.js';
import { createPostgresDriver } from './postgres-driver.js';
import type { SqlDriver } from './sql-driver.js';
import { postgresTestDatabase, testDatabaseUrl, uniqueSchema } from './__fixtures__/test-databases.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function appliedVersions(driver: SqlDriver, schema: string): Promise<number[]> {
  const { rows } = await driver.query<{ version: number }>(`SELECT version FROM ${schema}.migration ORDER BY version`);
  return rows.map((row) => Number(row.version));
}

describe('migrate', () => {
  it('applies each migration exactly once when two processes migrate a fresh schema at once (PostgreSQL)', async () => {
    const schema = uniqueSchema();
    const drivers = [createPostgresDriver({ connectionString: testDatabaseUrl() }), createPostgresDriver({ connectionString: testDatabaseUrl() })];
    cleanups.push(async () => {
      await drivers[0]!.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await Promise.all(drivers.map((driver) => driver.close()));
    });
    const results = await Promise.all(drivers.map((driver) => migrate(driver, { schema })));
    expect(results.map((versions) => versions.length).sort()).toEqual([0, MIGRATIONS.length]);
    expect(await appliedVersions(drivers[0]!, schema)).toEqual(MIGRATIONS.map((migration) => migration.version));
  });

  it('starts four control planes on one fresh database at once (PostgreSQL)', async () => {
    const database = await postgresTestDatabase();
    cleanups.push(() => database.cleanup());
    const planes = await Promise.all([1, 2, 3, 4].map(() => createControlPlane({ ...database.options(), background: false })));
    cleanups.push(async () => {
      await Promise.all(planes.map((plane) => plane.close()));
    });
    const job = await planes[0]!.client.jobs.start({ agentId: 'a', prompt: 'p' });
    expect(await planes[1]!.client.work.claim({ workerId: 'w' })).toMatchObject({ id: job.id });
  });

  it('applies pending migrations once on PGlite, also when called twice at once', async () => {
    const driver = await createPGliteDriver();
    cleanups.push(() => driver.close());
    const results = await Promise.all([migrate(driver, { schema: 'cp' }), migrate(driver, { schema: 'cp' })]);
    expect(results.map((versions) => versions.length).sort()).toEqual([0, MIGRATIONS.length]);
    const next = { version: 1000, name: 'extra column', sql: 'ALTER TABLE {schema}.job ADD COLUMN note text;' };
    expect(await migrate(driver, { schema: 'cp', migrations: [...MIGRATIONS, next] })).toEqual([1000]);
    expect(await migrate(driver, { schema: 'cp', migrations: [...MIGRATIONS, next] })).toEqual([]);
  });

  it('rolls a failing migration back entirely', async () => {
    const driver = await createPGliteDriver();
    cleanups.push(() => driver.close());
    const broken = { version: 1, name: 'broken', sql: 'CREATE TABLE {schema}.a (id int); SELECT * FROM no_such_table;' };
    await expect(migrate(driver, { schema: 'cp', migrations: [broken] })).rejects.toThrow(/no_such_table/);
    const { rows } = await driver.query(`SELECT 1 FROM information_schema.schemata WHERE schema_name = 'cp'`);
    expect(rows).toEqual([]);
  });

  it('refuses schema names that are not plain identifiers', () => {
    expect(() => checkSchemaName('ankole; DROP TABLE x')).toThrow(/schema name .* is invalid/);
    expect(checkSchemaName('ankole_test')).toBe('ankole_test');
  });
});
