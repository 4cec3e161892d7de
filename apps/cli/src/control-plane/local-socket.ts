import { lstat } from 'node:fs/promises';
import http from 'node:http';
import { createHttpControlPlaneClient } from '@core/control-plane-client';
import type { ControlPlane } from '@core/control-plane';
import { createAccessTokens, serveControlPlane, type AccessTokenRecord } from '@core/control-plane-http';
import { CliError } from '../cli/cli-error.js';
import { localSocketDistrust } from './check-local-socket.js';

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
 * @throws CliError (`local_socket_untrusted`) when something sits there that another user may have put or can swap
 *   (`localSocketDistrust`): nothing is sent to it.
 */
export async function connectLocalSocket(dataDir: string): Promise<Pick<ControlPlane, 'client' | 'changes' | 'close'> | undefined> {
  const socketPath = localSocketPath(dataDir);
  if (socketPath === undefined || !(await lstat(socketPath).then(() => true, () => false))) return undefined;
  await trustLocalSocket(socketPath);
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
  return { client, changes: client.changes, close: () => client.close() };
}

/**
 * Serves `controlPlane` on `dataDir`'s local socket (mode 0600 from the start: only this user may connect; no token), so other
 * `ankole` commands on the folder use this process while it holds the database. Closing stops the socket, then the control plane.
 */
export async function shareOnLocalSocket(dataDir: string, controlPlane: ControlPlane): Promise<Pick<ControlPlane, 'client' | 'close'>> {
  const socketPath = localSocketPath(dataDir);
  if (socketPath === undefined) return controlPlane;
  const server = await serveControlPlane({
    client: controlPlane.client,
    changes: controlPlane.changes,
    authenticate: () => ({ kind: 'local' }),
    tokens: createAccessTokens({ driver: controlPlane.driver, schema: controlPlane.schema }),
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

/** The token actions of `POST /v1/admin/tokens/<action>` on a local socket, and their results. */
export interface LocalTokenActions {
  create: { input: { kind: 'worker' | 'agent'; agentId?: string | undefined; label?: string | undefined }; result: { token: string; record: AccessTokenRecord } };
  list: { input: Record<string, never>; result: AccessTokenRecord[] };
  revoke: { input: { id: string }; result: boolean };
}

/** @throws CliError (`local_socket_untrusted`) naming the socket and why, when `localSocketDistrust` finds a reason. */
async function trustLocalSocket(socketPath: string): Promise<void> {
  const distrust = await localSocketDistrust(socketPath);
  if (distrust !== undefined) {
    throw new CliError('local_socket_untrusted', `Refusing the local socket ${socketPath}: ${distrust}. Nothing was sent to it; remove it if you did not make it, or use another --data-dir.`);
  }
}

/**
 * Manages the access tokens through the local socket of the process holding an embedded database (`ankole tokens`
 * while `ankole serve` or a worker runs on the folder), after checking the socket again (`localSocketDistrust`).
 * @throws CliError (`local_socket_untrusted`); Error with the server's message when it refuses.
 */
export async function localTokens<TAction extends keyof LocalTokenActions>(socketPath: string, action: TAction, input: LocalTokenActions[TAction]['input']): Promise<LocalTokenActions[TAction]['result']> {
  await trustLocalSocket(socketPath);
  const payload = JSON.stringify(input);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { socketPath, method: 'POST', path: `/v1/admin/tokens/${action}`, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { result?: unknown; error?: { message: string } };
          if (response.statusCode === 200) resolve(body.result as LocalTokenActions[TAction]['result']);
          else reject(new Error(body.error?.message ?? `HTTP ${response.statusCode}`));
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
