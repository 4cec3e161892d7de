import type { ClaimedJob, WorkApi } from './control-plane-client.js';

/** Options of `watchJobLease`. */
export interface WatchJobLeaseOptions {
  work: WorkApi;
  job: Pick<ClaimedJob, 'id' | 'leaseToken'>;
  /** How often to heartbeat, in ms (default 1000; keep it well under the lease, `leaseSeconds`: 10 s by default). */
  intervalMs?: number;
  /** Heartbeat errors (the database briefly unreachable); the next beat retries. */
  onError?: (error: unknown) => void;
}

/** A claim being kept alive. */
export interface JobLease {
  /** Aborted when the job is cancelled or another worker took it over: stop the turn. */
  readonly signal: AbortSignal;
  /** Why the signal aborted: `cancelled`, or `lost` (the claim expired and another worker holds it). */
  readonly reason: () => 'cancelled' | 'lost' | undefined;
  /** Stops heartbeating. */
  stop(): void;
}

/**
 * Heartbeats a claimed job until stopped, extending its claim, and aborts `signal` as soon as a
 * heartbeat says the job was cancelled or taken over, so the running turn stops within one interval.
 */
export function watchJobLease(options: WatchJobLeaseOptions): JobLease {
  const controller = new AbortController();
  let reason: 'cancelled' | 'lost' | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const beat = async () => {
    try {
      const result = await options.work.heartbeat({ jobId: options.job.id, leaseToken: options.job.leaseToken });
      if (!result.keepRunning && !stopped) {
        reason = result.status === 'cancelled' ? 'cancelled' : 'lost';
        controller.abort(new Error(reason === 'cancelled' ? 'The job was cancelled.' : 'Another worker took over the job.'));
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
