import { createHttpControlPlaneClient } from '@core/control-plane-client';
import type { ControlPlane } from '@core/control-plane';
import { wrapControlPlanes, type TestControlPlanes } from '@core/control-plane/testing';
import { createAccessTokens } from '../access-tokens.js';
import { serveControlPlane } from '../serve-control-plane.js';

/**
 * Stands in for packages/control-plane's `__fixtures__/client-transport.ts` (see vitest.config.ts): each control plane
 * the client suites open is served on a free port with a fresh worker token, and the tests get an HTTP client.
 */
export const clientTransport = {
  name: 'over HTTP',
  async wrap(plane: ControlPlane): Promise<ControlPlane> {
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
  },
};

/** `planes`, with every control plane it opens reached over HTTP. */
export function viaTransport(planes: TestControlPlanes): TestControlPlanes {
  return wrapControlPlanes(planes, clientTransport.wrap);
}
