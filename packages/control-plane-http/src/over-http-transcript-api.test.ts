// packages/control-plane's transcript client suite, unchanged, with every call made over HTTP through
// createHttpControlPlaneClient to a served control plane (the transport is swapped in vitest.config.ts).
import '../../../packages/control-plane/src/transcript-api.test.ts';
