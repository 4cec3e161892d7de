import { ownerColumn, type ApprovalOwner } from './approval-api.js';
import { isUuid, type ApprovedCallOutput, type ApprovedCallStart } from '@core/control-plane-client';
import { leaseLost, sameLease } from './lease-conflict.js';
import type { SqlDriver } from './sql-driver.js';

/*
 * The journal that makes a person's approval apply exactly once: an approved call is marked started (under the lease of
 * the job or task that runs it) before it runs, and its output is recorded once it ran. A later resume of the same
 * turn (after a crash, on any worker) reads both back (`resumeOf`): a recorded output is reused, a start without one
 * is never run again.
 */

/**
 * approved → started, by the holder of the job's or task's lease (again by the same lease: a repeated request whose
 * answer was lost; never by another lease: a call that started under a worker that died is not run again). The owner row is locked first (the lock a claim
 * takes), so a start and a takeover by another worker are ordered: either the start is journaled before the other
 * worker reads the journal, or it is refused because the lease is no longer this worker's.
 */
export async function startApprovedCall(
  driver: SqlDriver,
  schema: string,
  input: { owner: ApprovalOwner; leaseToken: string; callId: string },
): Promise<ApprovedCallStart> {
  const { owner, leaseToken, callId } = input;
  if (!isUuid(owner.id) || !isUuid(leaseToken)) return { run: false };
  return driver.transaction(async (transaction) => {
    const { rows: held } = await transaction.query<{ id: string }>(
      `SELECT id FROM ${schema}.${owner.kind} WHERE id = $1 AND lease_token = $2 AND status = 'running' FOR UPDATE`,
      [owner.id, leaseToken],
    );
    if (held.length === 0) return { run: false };
    const { rows } = await transaction.query<{ id: string }>(
      `UPDATE ${schema}.approval SET started_at = coalesce(started_at, now()), started_by = $3
       WHERE ${ownerColumn(owner)} = $1 AND call_id = $2 AND status = 'approved' AND (started_at IS NULL OR (started_by = $3 AND output IS NULL))
       RETURNING id`,
      [owner.id, callId, leaseToken],
    );
    return { run: rows.length === 1 };
  });
}

/**
 * started → output recorded, by the lease the call was started under only (kept even when that lease was lost
 * meanwhile: the call did run). Once: the same lease again gets `{ recorded: false }`, as does a call that is not an
 * approved one of this job or task.
 * @throws ControlPlaneConflictError (`lease_lost`) for any other lease, or a call never started: nothing is recorded.
 */
export async function finishApprovedCall(
  driver: SqlDriver,
  schema: string,
  input: { owner: ApprovalOwner; leaseToken: string; callId: string; output: ApprovedCallOutput },
): Promise<{ recorded: boolean }> {
  const { owner, leaseToken, callId, output } = input;
  if (!isUuid(owner.id)) return { recorded: false };
  return driver.transaction(async (transaction) => {
    const { rows } = await transaction.query<{ started_by: string | null; output: unknown }>(
      `SELECT started_by, output FROM ${schema}.approval WHERE ${ownerColumn(owner)} = $1 AND call_id = $2 AND status = 'approved' FOR UPDATE`,
      [owner.id, callId],
    );
    const call = rows[0];
    if (call === undefined) return { recorded: false };
    if (!sameLease(call.started_by, leaseToken)) throw leaseLost(owner);
    if (call.output !== null) return { recorded: false };
    await transaction.query(`UPDATE ${schema}.approval SET output = $3::jsonb WHERE ${ownerColumn(owner)} = $1 AND call_id = $2`, [
      owner.id,
      callId,
      JSON.stringify(output),
    ]);
    return { recorded: true };
  });
}
