// packages/control-plane's create-control-plane client suite, unchanged, with every call made over HTTP through
// createHttpControlPlaneClient to a served control plane (the transport is swapped in vitest.config.ts).
import '../../../packages/control-plane/src/create-control-plane.test.ts';
