import { existsSync } from 'node:fs';
import http from 'node:http';
import { createHttpControlPlaneClient, type ControlPlane } from '@core/control-plane';
import { serveControlPlane } from '@core/control-plane-server';

/** The longest Unix socket path the operating systems take (sun_path, with its terminating NUL). */
const MAX_SOCKET_PATH = 103;

/** The local socket of an embedded database folder: `<dataDir>.sock`, beside its lock file `<dataDir>.lock`. */
export function localSocketPath(dataDir: string): string | undefined {
  const socketPath = `${dataDir}.sock`;
  return Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH ? socketPath : undefined;
}

/**
 * An HTTP client over the local socket of the process holding `dataDir`, or `undefined` when no process answers there
 * (no socket, or one left by a process that died).
 */
export async function connectLocalSocket(dataDir: string): Promise<Pick<ControlPlane, 'client' | 'close'> | undefined> {
  const socketPath = localSocketPath(dataDir);
  if (socketPath === undefined || !existsSync(socketPath)) return undefined;
  const healthy = await new Promise<boolean>((resolve) => {
    const request = http.get({ socketPath, path: '/v1/health', timeout: 2_000 }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
  if (!healthy) return undefined;
  const client = createHttpControlPlaneClient({ url: 'http://localhost', socketPath });
  return { client, close: () => client.close() };
}

/**
 * Serves `controlPlane` on `dataDir`'s local socket (mode 0600: only this user may connect; no token), so other
 * `ankole` commands on the folder use this process while it holds the database. Closing stops the socket, then the control plane.
 */
export async function shareOnLocalSocket(dataDir: string, controlPlane: ControlPlane): Promise<Pick<ControlPlane, 'client' | 'close'>> {
  const socketPath = localSocketPath(dataDir);
  if (socketPath === undefined) return controlPlane;
  const server = await serveControlPlane({
    client: controlPlane.client,
    authenticate: () => ({ kind: 'local' }),
    socketPath,
    ratePerSecond: 100_000,
    rateBurst: 100_000,
  });
  return {
    client: controlPlane.client,
    async close() {
      await server.close();
      await controlPlane.close();
    },
  };
}
