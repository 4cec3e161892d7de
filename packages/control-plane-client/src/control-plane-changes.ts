/**
 * One change a person watching the control plane may want to see: a row of `kind` was created, or changed what a
 * viewer shows (a status, a worker, a decision, a log line; not a heartbeat). Only ids: whoever shows it reads the
 * record through the client, with the caller's own access checks.
 */
export type ControlPlaneChange =
  | { kind: 'job'; id: string; agentId: string }
  | { kind: 'workflow'; id: string; agentId: string }
  | { kind: 'task'; id: string; agentId: string; workflowId: string }
  | { kind: 'approval'; id: string; agentId: string; jobId?: string | undefined; taskId?: string | undefined }
  | { kind: 'schedule'; id: string; agentId: string }
  /** Events were appended to the transcript of a claim of this job or task. */
  | { kind: 'transcript'; id: string; agentId: string; jobId?: string | undefined; taskId?: string | undefined };

/** What a watcher hears: a change, or `gap` when changes may have been missed (the listening connection was lost and is back). */
export type ControlPlaneChangeEvent = ControlPlaneChange | { kind: 'gap' };

/** The kinds of `ControlPlaneChange`. */
export const CHANGE_KINDS = ['job', 'workflow', 'task', 'approval', 'schedule', 'transcript'] as const;

/**
 * The changes of one control plane as they are committed, from every process on its database (PostgreSQL
 * LISTEN/NOTIFY): what a live view waits on instead of asking again and again.
 */
export interface ControlPlaneChanges {
  /**
   * Calls `listener` with every change committed from now on, and `{ kind: 'gap' }` after changes may have been
   * missed. Resolves once listening (read the current state after it and nothing is missed), or once listening
   * failed (then a `gap` comes when it listens again); the function it resolves to stops.
   */
  subscribe(listener: (event: ControlPlaneChangeEvent) => void): Promise<() => void>;
}
