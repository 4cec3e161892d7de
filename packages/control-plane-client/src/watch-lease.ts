/** What one heartbeat of a claim answers (the job and task heartbeats both answer this). */
export interface LeaseHeartbeat {
  keepRunning: boolean;
  status: string;
  /** This very lease settled the claim (the turn's own result was stored): a clean stop. */
  finishedByThisLease?: boolean | undefined;
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
  /**
   * Why the watch ended on its own: `cancelled` or `lost` (the claim expired and another worker holds it, or it ended
   * some other way) — the signal aborted —, or `finished`: this lease settled the claim itself (the turn's own result
   * was stored), the heartbeats stopped and the signal did not abort.
   */
  readonly reason: () => 'cancelled' | 'lost' | 'finished' | undefined;
  /** Stops heartbeating. */
  stop(): void;
}

/**
 * Heartbeats a claim until stopped and aborts `signal` as soon as a heartbeat says the claim was cancelled or taken
 * over. The heartbeats are long polls (`waitMs` = the interval): each extends the claim and waits on the control
 * plane for a change, so a cancel reaches the turn at once, in process and over HTTP alike. A heartbeat that answers
 * sooner (a control plane that does not wait, or an error) is followed by the next one interval after it began, not
 * at once. A heartbeat that answers "finished by this lease" (the turn's own result was stored, even while that
 * heartbeat waited) stops the watch cleanly: no abort, reason `finished`.
 * `watchJobLease` and `watchTaskLease` are this for jobs and tasks.
 */
export function watchLease(options: WatchLeaseOptions): Lease {
  const intervalMs = options.intervalMs ?? 1000;
  const controller = new AbortController();
  const stopping = new AbortController();
  let reason: 'cancelled' | 'lost' | 'finished' | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const beat = async () => {
    timer = undefined;
    const began = Date.now();
    try {
      const result = await options.heartbeat(intervalMs, stopping.signal);
      if (!result.keepRunning && !stopped && result.finishedByThisLease === true) {
        reason = 'finished';
        stopped = true;
      } else if (!result.keepRunning && !stopped) {
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
    stop() {
      stopped = true;
      stopping.abort();
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
