import type { ControlPlane } from '../create-control-plane.js';
import { wrapControlPlanes, type TestControlPlanes } from '../testing.js';

/**
 * How the client test suites (create-control-plane, brain-api, workflow-engine) reach the control plane they open.
 * Here: in process, unchanged. The HTTP server's package runs the same test files with this module swapped for one
 * that serves each control plane over HTTP and hands the tests an HTTP client (apps/control-plane/vitest.config.ts).
 */
export const clientTransport = {
  /** Shown in the suites' names. */
  name: 'in process',
  /** The control plane the tests use: here `plane` itself. */
  wrap: async (plane: ControlPlane): Promise<ControlPlane> => plane,
};

/** `planes`, with every control plane it opens reached through `clientTransport`. */
export function viaTransport(planes: TestControlPlanes): TestControlPlanes {
  return wrapControlPlanes(planes, clientTransport.wrap);
}
