import type { SqlExecutor } from './sql-driver.js';

/** An active pg-boss job and the lease its claimant holds it with. */
export interface QueueClaim {
  /** pg-boss's schema (`<schema>_queue`). */
  schema: string;
  /** The pg-boss queue (e.g. `TURN_QUEUE`). */
  queue: string;
  jobId: string;
  /** How long the claim lasts from now without another call. */
  leaseSeconds: number;
}

/**
 * Holds a claim for `leaseSeconds` from now: moves the active pg-boss job's expiry (its `expire_in`,
 * counted from `started_on`) so that it runs out `leaseSeconds` from now. Call it in the transaction
 * that claims the job — so the claimant's lease applies, not the one the job was queued with — and on
 * every heartbeat. A claim that is no longer active (expired, completed, cancelled) is left alone.
 * Returns whether the job was active.
 */
export async function holdQueueClaim(executor: SqlExecutor, claim: QueueClaim): Promise<boolean> {
  const { rows } = await executor.query<{ id: string }>(
    `UPDATE ${claim.schema}.job SET expire_in = (now() - started_on) + make_interval(secs => $3)
     WHERE name = $1 AND id = $2 AND state = 'active' RETURNING id`,
    [claim.queue, claim.jobId, claim.leaseSeconds],
  );
  return rows.length === 1;
}

/**
 * Whether any claim in pg-boss's schema ran out of lease (an active job past its expiry): one read,
 * without pg-boss's lock, so a process can look every second and take the lock only when needed.
 */
export async function hasLostClaims(executor: SqlExecutor, schema: string): Promise<boolean> {
  const { rows } = await executor.query<{ lost: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM ${schema}.job WHERE state = 'active' AND started_on + expire_in < now()) AS lost`,
    [],
  );
  return rows[0]?.lost === true;
}
