import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ControlPlaneFailure } from './errors.js';
import { testDatabaseUrl } from './setup-test-postgres.js';
import { startTestPostgres } from './start-test-postgres.js';

describe('startTestPostgres', () => {
  it('starts a server with a test database that answers queries; stop() shuts it and removes its folder', async () => {
    const server = await startTestPostgres();
    let stopped = false;
    try {
      expect(server.url).toMatch(/^postgres:\/\/postgres:password@127\.0\.0\.1:\d+\/test$/);
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
