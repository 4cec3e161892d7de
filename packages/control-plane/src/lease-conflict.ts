import { ControlPlaneConflictError } from '@core/control-plane-client';

/*
 * The one rule for every write under a lease (`work.complete/fail/release/hold`, `tasks.submit/fail/release/hold`, the
 * approved-call journal): it is applied only with the lease of the current claim. A row keeps the lease token of the
 * claim that ended it (settled, released, paused, or cancelled while it ran), so the holder repeating a call whose
 * answer was lost is told how the row stands; every other lease — a forged one, one another worker's claim replaced,
 * one that ran out and was reaped (the reaper clears the token) — gets `409 lease_lost` and changes nothing.
 */

/** The lease columns of a `job` or `task` row. */
export interface LeasedRow {
  status: string;
  lease_token: string | null;
}

/** What a lease guards: a job or a task, with what the message calls it. */
export interface LeaseOwner {
  kind: 'job' | 'task';
  id: string;
  /** The title shown in the message (the id when absent). */
  title?: string;
}

/**
 * Why a write under `leaseToken` does not apply to `row` (read after the write's guarded statement changed nothing):
 * `undefined` when `leaseToken` is the row's own lease (its holder repeating a call, or a job or task cancelled or
 * settled meanwhile: the caller answers with the row as it is), else the 409 `lease_lost` to throw.
 */
export function leaseConflict(owner: LeaseOwner, row: LeasedRow, leaseToken: string): ControlPlaneConflictError | undefined {
  return sameLease(row.lease_token, leaseToken) ? undefined : leaseLost(owner);
}

/** The 409 `lease_lost` for a write by a worker that does not hold `owner` (a wrong, expired or taken-over lease). */
export function leaseLost(owner: LeaseOwner): ControlPlaneConflictError {
  return new ControlPlaneConflictError(
    'lease_lost',
    `This worker does not hold ${owner.kind} "${owner.title ?? owner.id}": its lease is not the current one (wrong, expired, or taken over by ` +
      `another worker), so nothing was changed. Stop working on it.`,
  );
}

/** Whether `leaseToken` is `stored` (a uuid column: compared as PostgreSQL compares uuids, whatever the letter case). */
export function sameLease(stored: string | null, leaseToken: string): boolean {
  return stored !== null && stored.toLowerCase() === leaseToken.toLowerCase();
}
