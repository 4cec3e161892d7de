import { chmod, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { createControlPlaneApp, type ControlPlaneAppOptions } from './create-control-plane-app.js';

/** Options of `serveControlPlane`: the app's, and where to listen. */
export interface ServeControlPlaneOptions extends ControlPlaneAppOptions {
  /** The address to bind (default `127.0.0.1`: only this machine). */
  host?: string | undefined;
  /** The TCP port (default 7070; 0 picks a free one). Ignored when `socketPath` is set. */
  port?: number | undefined;
  /** Listen on this Unix socket instead (made readable and writable by its owner only, 0600). */
  socketPath?: string | undefined;
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

/** Serves `createControlPlaneApp(options)` over HTTP on `host:port` or on a Unix socket. */
export async function serveControlPlane(options: ServeControlPlaneOptions): Promise<ControlPlaneServer> {
  // Closing ends the long polls first (each answers at once), so the open requests finish promptly.
  const closing = new AbortController();
  const app = createControlPlaneApp({ ...options, signal: options.signal === undefined ? closing.signal : AbortSignal.any([options.signal, closing.signal]) });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  server.keepAliveTimeout = 30_000;
  // Claims may long-poll up to 30 s; runNext runs a sandbox: no request timeout below a couple of minutes.
  server.requestTimeout = 180_000;
  const socketPath = options.socketPath;
  if (socketPath !== undefined) await rm(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const done = () => {
      server.off('error', reject);
      resolve();
    };
    if (socketPath !== undefined) server.listen(socketPath, done);
    else server.listen(options.port ?? 7070, options.host ?? '127.0.0.1', done);
  });
  if (socketPath !== undefined) await chmod(socketPath, 0o600);
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
