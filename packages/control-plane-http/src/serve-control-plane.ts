import { chmod, mkdtemp, rename, rm } from 'node:fs/promises';
import type { AddressInfo, Socket } from 'node:net';
import type { Server } from 'node:http';
import path from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { createControlPlaneApp, type ControlPlaneAppOptions } from './create-control-plane-app.js';

/** Options of `serveControlPlane`: the app's, where to listen, and how long a client may take. */
export interface ServeControlPlaneOptions extends ControlPlaneAppOptions {
  /** The address to bind (default `127.0.0.1`: only this machine). */
  host?: string | undefined;
  /** The TCP port (default 7070; 0 picks a free one). Ignored when `socketPath` is set. */
  port?: number | undefined;
  /**
   * Listen on this Unix socket instead: bound inside a new 0700 folder beside it, made 0600 (its owner only) and
   * only then renamed into place, so no other user can connect at any moment whatever the process umask.
   */
  socketPath?: string | undefined;
  /** A client must send its request headers within this many ms of connecting or be cut off (default 10 000). */
  headersTimeoutMs?: number | undefined;
  /** A client must send its whole request (headers and body) within this many ms (default 60 000; a long poll's wait for its answer does not count). */
  requestTimeoutMs?: number | undefined;
  /** An idle kept-alive connection is closed after this many ms (default 5 000). */
  keepAliveTimeoutMs?: number | undefined;
  /** Most open connections (default 1000); more are closed at once. */
  maxConnections?: number | undefined;
  /** Most open connections from one remote address (default 256); more are closed at once. */
  maxConnectionsPerAddress?: number | undefined;
}

/** A listening control plane server. */
export interface ControlPlaneServer {
  /** `http://host:port`, or `http://localhost` for a socket. */
  readonly url: string;
  /** The Unix socket, when listening on one. */
  readonly socketPath: string | undefined;
  /** Stops accepting, ends the long polls and idle connections, waits for the open requests (and removes the socket file). */
  close(): Promise<void>;
}

/** The longest Unix socket path the operating systems take (sun_path, with its terminating NUL). */
const MAX_SOCKET_PATH = 103;

/**
 * Serves `createControlPlaneApp(options)` over HTTP on `host:port` or on a Unix socket, with the slow-client bounds of
 * the options (headers within 10 s, the whole request within 60 s, idle connections closed after 5 s, at most 1000
 * connections and 256 from one address).
 * @throws the listen error (`EADDRINUSE`, `EACCES`, …) when it cannot listen.
 */
export async function serveControlPlane(options: ServeControlPlaneOptions): Promise<ControlPlaneServer> {
  // Closing ends the long polls first (each answers at once), so the open requests finish promptly.
  const closing = new AbortController();
  const app = createControlPlaneApp({ ...options, signal: options.signal === undefined ? closing.signal : AbortSignal.any([options.signal, closing.signal]) });
  const headersTimeout = options.headersTimeoutMs ?? 10_000;
  const requestTimeout = Math.max(options.requestTimeoutMs ?? 60_000, headersTimeout);
  const server = createAdaptorServer({
    fetch: app.fetch,
    // Node checks the header and request timeouts every `connectionsCheckingInterval` (30 s by default): often enough here that they hold.
    serverOptions: { headersTimeout, requestTimeout, keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000, connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 4))) },
  }) as Server;
  server.maxConnections = options.maxConnections ?? 1000;
  limitConnectionsPerAddress(server, options.maxConnectionsPerAddress ?? 256);
  const socketPath = options.socketPath;
  if (socketPath === undefined) await listen(server, (done) => server.listen(options.port ?? 7070, options.host ?? '127.0.0.1', done));
  else await listenOnSocket(server, socketPath);
  const address = server.address();
  const url =
    socketPath !== undefined || address === null || typeof address === 'string'
      ? 'http://localhost'
      : `http://${(address as AddressInfo).family === 'IPv6' ? `[${(address as AddressInfo).address}]` : (address as AddressInfo).address}:${(address as AddressInfo).port}`;
  let closed: Promise<void> | undefined;
  return {
    url,
    socketPath,
    close() {
      closing.abort();
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      }).then(() => (socketPath === undefined ? undefined : rm(socketPath, { force: true })));
      return closed;
    },
  };
}

function listen(server: Server, start: (done: () => void) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    start(() => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * Binds `socketPath` so that only this user can ever connect: inside a new folder beside it (`mkdtemp`: mode 0700),
 * made 0600, then renamed into place (a rename within one folder tree is atomic and keeps the mode). When that
 * folder's path would be too long for a socket, binds in place under umask 0177 instead.
 */
async function listenOnSocket(server: Server, socketPath: string): Promise<void> {
  await rm(socketPath, { force: true });
  const folder = await mkdtemp(path.join(path.dirname(socketPath), '.ank-'));
  try {
    const inside = path.join(folder, 's');
    if (Buffer.byteLength(inside) <= MAX_SOCKET_PATH) {
      await listen(server, (done) => server.listen(inside, done));
      await chmod(inside, 0o600);
      await rename(inside, socketPath);
      return;
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  // The bind is synchronous within listen(), so the umask is back before anything else runs.
  await listen(server, (done) => {
    const previous = process.umask(0o177);
    try {
      server.listen(socketPath, done);
    } finally {
      process.umask(previous);
    }
  });
  await chmod(socketPath, 0o600);
}

/** Closes a new connection at once when its remote address already has `max` open (Unix socket connections have none). */
function limitConnectionsPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
