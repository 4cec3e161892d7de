import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createControlPlane, type ControlPlane } from './create-control-plane.js';
import { testDatabaseUrl } from './__fixtures__/test-databases.js';
import { controlPlanes } from './testing.js';

// The wait below is longer than the test's own timeout (15 s) and the control plane never re-checks on its own
// (`longPollRecheckMs` 60 s): a call can only answer in time because the database's change notification woke it.
const LONG = 30_000;
const TEST_TIMEOUT = 15_000;

describe.each(['postgres', 'pglite'] as const)(`long polls across processes on %s (the rest is in the contract suite)`, (kind) => {
  const planes = controlPlanes(kind);
  afterEach(() => planes.cleanup());
  afterAll(() => planes.close());

  // Leases long enough that a heartbeat may wait LONG (it waits at most a third of the lease). Opened before each test,
  // outside its timeout (a first PGlite takes a while on a loaded machine).
  let plane: ControlPlane;
  beforeEach(async () => {
    plane = await planes.open({ longPollRecheckMs: 60_000, leaseSeconds: 120, workflowLimits: { taskLeaseSeconds: 120 } });
  });

  /** Resolves once `promise` settled, recording `name` in `events` then. */
  const track = <T>(events: string[], name: string, promise: Promise<T>) => promise.then((value) => (events.push(name), value));

  it.runIf(kind === 'postgres')('wakes on work queued by another process on the same database', { timeout: TEST_TIMEOUT }, async () => {
    let other: ControlPlane | undefined;
    try {
      other = await createControlPlane({ databaseUrl: testDatabaseUrl(), schema: plane.schema, background: false });
      const events: string[] = [];
      const claim = track(events, 'claimed', plane.client.work.claim({ workerId: 'w', waitMs: LONG }));
      await plane.client.jobs.list({ agentId: 'a' });
      events.push('queued elsewhere');
      const job = await other.client.jobs.start({ agentId: 'a', prompt: 'p' });
      expect((await claim)?.id).toBe(job.id);
      expect(events).toEqual(['queued elsewhere', 'claimed']);
    } finally {
      await other?.close();
    }
  });
});
