import type { ControlPlane } from '@core/control-plane';
import type { AccessTokens } from '../access-tokens.js';
import { serveControlPlane, type ControlPlaneServer, type ServeControlPlaneOptions } from '../serve-control-plane.js';

/** Serves `plane` on a free port, its bearer tokens checked with `tokens`, its log lines into `logged`; `options` override. */
export function serveWithTokens(plane: ControlPlane, tokens: AccessTokens, logged: string[], options: Partial<ServeControlPlaneOptions> = {}): Promise<ControlPlaneServer> {
  return serveControlPlane({
    client: plane.client,
    authenticate: (token) => (token === undefined ? undefined : tokens.verify(token)),
    port: 0,
    log: (line) => logged.push(line),
    ...options,
  });
}
