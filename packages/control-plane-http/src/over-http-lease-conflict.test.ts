// packages/control-plane's suite of writes under a lease (forged, stale and repeated leases, the approved-call journal),
// unchanged, with every call made over HTTP through createHttpControlPlaneClient to a served control plane: a refused
// write answers 409 lease_lost (the transport is swapped in vitest.config.ts).
import '../../../packages/control-plane/src/lease-conflict.test.ts';
