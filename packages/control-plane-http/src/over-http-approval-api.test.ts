// packages/control-plane's approval-api client suite (job and task holds, decisions, the approved-call journal),
// unchanged, with every call made over HTTP through createHttpControlPlaneClient to a served control plane (the
// transport is swapped in vitest.config.ts).
import '../../../packages/control-plane/src/approval-api.test.ts';
