import type { ClaimedTask, TaskWorkApi } from './workflow-client.js';
import { watchLease, type Lease } from './watch-lease.js';

/** Options of `watchTaskLease`. */
export interface WatchTaskLeaseOptions {
  tasks: TaskWorkApi;
  task: Pick<ClaimedTask, 'id' | 'leaseToken'>;
  /** How often to heartbeat, in ms (default 1000; keep it well under the task lease). */
  intervalMs?: number;
  /** Heartbeat errors (the database briefly unreachable); the next beat retries. */
  onError?: (error: unknown) => void;
}

/** A task claim being kept alive. */
export type TaskLease = Lease;

/**
 * Heartbeats a claimed task until stopped, extending its claim, and aborts `signal` as soon as a heartbeat says the
 * task was cancelled or taken over, so the running task turn stops within one interval.
 */
export function watchTaskLease(options: WatchTaskLeaseOptions): TaskLease {
  return watchLease({
    heartbeat: (waitMs, signal) => options.tasks.heartbeat({ taskId: options.task.id, leaseToken: options.task.leaseToken, waitMs }, { signal }),
    intervalMs: options.intervalMs,
    onError: options.onError,
    messages: { cancelled: 'The task (or its workflow) was cancelled.', lost: 'Another worker took over the task.' },
  });
}
