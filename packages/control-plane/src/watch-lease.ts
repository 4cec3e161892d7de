/** What one heartbeat of a claim answers (the job and task heartbeats both answer this). */
export interface LeaseHeartbeat {
  keepRunning: boolean;
  status: string;
}

/** Options of `watchLease`. */
export interface WatchLeaseOptions {
  /** Sends one heartbeat for the claim, extending it. */
  heartbeat: () => Promise<LeaseHeartbeat>;
  /** How often to heartbeat, in ms (default 1000). */
  intervalMs?: number | undefined;
  /** Heartbeat errors (the database briefly unreachable); the next beat retries. */
  onError?: ((error: unknown) => void) | undefined;
  /** The abort reasons' messages: when the claim was cancelled, and when another worker took it over. */
  messages: { cancelled: string; lost: string };
}

/** A claim being kept alive. */
export interface Lease {
  /** Aborted when the claim was cancelled or another worker took it over: stop the turn. */
  readonly signal: AbortSignal;
  /** Why the signal aborted: `cancelled`, or `lost` (the claim expired and another worker holds it, or it finished). */
  readonly reason: () => 'cancelled' | 'lost' | undefined;
  /** Stops heartbeating. */
  stop(): void;
}

/**
 * Heartbeats a claim until stopped and aborts `signal` as soon as a heartbeat says the claim was cancelled or taken
 * over, so the running turn stops within one interval. `watchJobLease` and `watchTaskLease` are this for jobs and tasks.
 */
export function watchLease(options: WatchLeaseOptions): Lease {
  const controller = new AbortController();
  let reason: 'cancelled' | 'lost' | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const beat = async () => {
    try {
      const result = await options.heartbeat();
      if (!result.keepRunning && !stopped) {
        reason = result.status === 'cancelled' ? 'cancelled' : 'lost';
        controller.abort(new Error(options.messages[reason]));
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
