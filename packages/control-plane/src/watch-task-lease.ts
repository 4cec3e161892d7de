import type { ClaimedTask, TaskWorkApi } from './workflow-client.js';

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
export interface TaskLease {
  /** Aborted when the task (or its workflow) was cancelled or another worker took it over: stop the task turn. */
  readonly signal: AbortSignal;
  /** Why the signal aborted: `cancelled`, or `lost` (the claim expired and another worker holds it, or it finished). */
  readonly reason: () => 'cancelled' | 'lost' | undefined;
  /** Stops heartbeating. */
  stop(): void;
}

/**
 * Heartbeats a claimed task until stopped, extending its claim, and aborts `signal` as soon as a heartbeat says the
 * task was cancelled or taken over, so the running task turn stops within one interval.
 */
export function watchTaskLease(options: WatchTaskLeaseOptions): TaskLease {
  const controller = new AbortController();
  let reason: 'cancelled' | 'lost' | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const beat = async () => {
    try {
      const result = await options.tasks.heartbeat({ taskId: options.task.id, leaseToken: options.task.leaseToken });
      if (!result.keepRunning && !stopped) {
        reason = result.status === 'cancelled' ? 'cancelled' : 'lost';
        controller.abort(new Error(reason === 'cancelled' ? 'The task (or its workflow) was cancelled.' : 'Another worker took over the task.'));
        stopped = true;
      }
    } catch (error) {
      options.onError?.(error);
    }
    if (!stopped) timer = setTimeout(beat, options.intervalMs ?? 1000);
  };
  timer = setTimeout(beat, options.intervalMs ?? 1000);
  return {
    signal: controller.signal,
    reason: () => reason,
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
