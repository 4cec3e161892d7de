// The control plane's own client test suites, unchanged, with every call made over HTTP through
// createHttpControlPlaneClient to a served control plane (the transport is swapped in vitest.config.ts).
import '../../../packages/control-plane/src/create-control-plane.test.ts';
import '../../../packages/control-plane/src/brain-api.test.ts';
import '../../../packages/control-plane/src/workflow-engine.test.ts';
