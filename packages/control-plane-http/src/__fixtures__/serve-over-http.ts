import type { ControlPlane } from '@core/control-plane';
import { createHttpControlPlaneClient } from '@core/control-plane-client';
import { createAccessTokens } from '../access-tokens.js';
import { serveControlPlane } from '../serve-control-plane.js';

/**
 * `plane` served on a free port with a fresh worker token, as a control plane whose `client` is an HTTP client to it;
 * `close` stops the client, the server and `plane`.
 */
export async function serveOverHttp(plane: ControlPlane): Promise<ControlPlane> {
  const tokens = createAccessTokens({ driver: plane.driver, schema: plane.schema });
  const { token } = await tokens.create({ kind: 'worker', label: 'test' });
  const server = await serveControlPlane({ client: plane.client, authenticate: (presented) => (presented === undefined ? undefined : tokens.verify(presented)), port: 0, ratePerSecond: 10_000, rateBurst: 10_000 });
  const client = createHttpControlPlaneClient({ url: server.url, token });
  let closing: Promise<void> | undefined;
  return {
    ...plane,
    client,
    fireDueSchedules: () => plane.fireDueSchedules(),
    close() {
      closing ??= (async () => {
        await client.close();
        await server.close();
        await plane.close();
      })();
      return closing;
    },
  };
}
