import { describeControlPlaneContract } from '@core/control-plane-client/testing';
import { afterAll, afterEach, describe } from 'vitest';
import { controlPlanes } from './testing.js';

// The contract suite of @core/control-plane-client, in process: the engine's own client on a fresh schema per test.
describe.each(['postgres', 'pglite'] as const)('on %s', (kind) => {
  const planes = controlPlanes(kind);
  afterEach(() => planes.cleanup());
  afterAll(() => planes.close());
  describeControlPlaneContract('in process', (options) => planes.open(options));
});
