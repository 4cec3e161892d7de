/** What one heartbeat of a claim answers (the job and task heartbeats both answer this). */
export interface LeaseHeartbeat {
  keepRunning: boolean;
  status: string;
}

/** Options of `watchLease`. */
export interface WatchLeaseOptions {
  /**
   * Sends one heartbeat for the claim, extending it; a long poll: it may wait up to `waitMs` for the claim to change
   * (cancelled, taken over) and answer as soon as it does. `signal` aborts when the watch stops.
   */
  heartbeat: (waitMs: number, signal: AbortSignal) => Promise<LeaseHeartbeat>;
  /** How often to heartbeat, in ms (default 1000): each heartbeat waits this long on the server, the next follows. */
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
  /**
   * Holds back the abort while `until` is pending: a heartbeat that finds the claim ended (the turn's own result was
   * just stored, say) waits for it, and aborts only if the lease was not stopped meanwhile. For work whose outcome
   * decides whether the claim ended because of this very turn.
   */
  defer(until: Promise<unknown>): void;
  /** Stops heartbeating. */
  stop(): void;
}

/**
 * Heartbeats a claim until stopped and aborts `signal` as soon as a heartbeat says the claim was cancelled or taken
 * over. The heartbeats are long polls (`waitMs` = the interval): each extends the claim and waits on the control
 * plane for a change, so a cancel reaches the turn at once, in process and over HTTP alike. A heartbeat that answers
 * sooner (a control plane that does not wait, or an error) is followed by the next one interval after it began, not
 * at once. `defer` holds an abort back while work that may have ended the claim itself (a stored result) settles.
 * `watchJobLease` and `watchTaskLease` are this for jobs and tasks.
 */
export function watchLease(options: WatchLeaseOptions): Lease {
  const intervalMs = options.intervalMs ?? 1000;
  const controller = new AbortController();
  const stopping = new AbortController();
  let reason: 'cancelled' | 'lost' | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const deferred = new Set<Promise<unknown>>();
  const beat = async () => {
    timer = undefined;
    const began = Date.now();
    try {
      const result = await options.heartbeat(intervalMs, stopping.signal);
      if (!result.keepRunning && !stopped && deferred.size > 0) await Promise.allSettled([...deferred]);
      if (!result.keepRunning && !stopped) {
        reason = result.status === 'cancelled' ? 'cancelled' : 'lost';
        controller.abort(new Error(options.messages[reason]));
        stopped = true;
      }
    } catch (error) {
      if (!stopped) options.onError?.(error);
    }
    if (!stopped) timer = setTimeout(beat, Math.max(0, began + intervalMs - Date.now()));
  };
  void beat();
  return {
    signal: controller.signal,
    reason: () => reason,
    defer(until) {
      const settled: Promise<unknown> = until.then(
        (): void => void deferred.delete(settled),
        (): void => void deferred.delete(settled),
      );
      deferred.add(settled);
    },
    stop() {
      stopped = true;
      stopping.abort();
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
