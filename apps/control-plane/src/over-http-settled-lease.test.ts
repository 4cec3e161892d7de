// packages/control-plane's suite of heartbeats of a settled claim ("finished by this lease" versus another lease),
// unchanged, with every call made over HTTP through createHttpControlPlaneClient to a served control plane (the
// transport is swapped in vitest.config.ts): the heartbeat's `finishedByThisLease` crosses the wire.
import '../../../packages/control-plane/src/settled-lease.test.ts';
