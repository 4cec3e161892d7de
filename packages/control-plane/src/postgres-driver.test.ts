import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createPostgresDriver } from './postgres-driver.js';
import { testDatabaseUrl } from './__fixtures__/test-databases.js';

describe('createPostgresDriver', () => {
  it('runs queries, multi-statement exec and transactions on the real server', async () => {
    const driver = createPostgresDriver({ connectionString: testDatabaseUrl() });
    try {
      expect((await driver.query<{ sum: number }>('SELECT $1::int + 1 AS sum', [41])).rows).toEqual([{ sum: 42 }]);
      expect((await driver.exec<{ last: number }>('SELECT 1 AS first; SELECT 2 AS last')).rows).toEqual([{ last: 2 }]);
      await expect(
        driver.transaction(async (transaction) => {
          await transaction.query('SELECT 1');
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
    } finally {
      await driver.close();
    }
  });

  it('refuses a connection string that is not a PostgreSQL URL, saying what to write', () => {
    expect(() => createPostgresDriver({ connectionString: 'localhost:5432/test' })).toThrow(
      expect.objectContaining({ code: 'database_url_invalid', message: expect.stringContaining('postgres://USER') }),
    );
  });

  it('gives up on a server that accepts the connection but never answers, instead of hanging', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const driver = createPostgresDriver({ connectionString: `postgres://postgres@127.0.0.1:${port}/test`, connectTimeoutMs: 300 });
    try {
      await expect(driver.query('SELECT 1')).rejects.toThrow(/timeout/i);
    } finally {
      await driver.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 20_000);
});
