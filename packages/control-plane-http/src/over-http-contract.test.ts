import { describeControlPlaneContract } from '@core/control-plane-client/testing';
import { controlPlanes, wrapControlPlanes } from '@core/control-plane/testing';
import { afterAll, afterEach, describe } from 'vitest';
import { serveOverHttp } from './__fixtures__/serve-over-http.js';

// The contract suite of @core/control-plane-client over HTTP: each control plane served on a free port, every call
// made through createHttpControlPlaneClient.
describe.each(['postgres', 'pglite'] as const)('on %s', (kind) => {
  const planes = wrapControlPlanes(controlPlanes(kind), serveOverHttp);
  afterEach(() => planes.cleanup());
  afterAll(() => planes.close());
  describeControlPlaneContract('over HTTP', (options) => planes.open(options));
});
