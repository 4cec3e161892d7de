// packages/control-plane's brain-api client suite, unchanged, with every call made over HTTP through
// createHttpControlPlaneClient to a served control plane (the transport is swapped in vitest.config.ts).
import '../../../packages/control-plane/src/brain-api.test.ts';
