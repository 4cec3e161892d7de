import type { ClaimedJob, WorkApi } from './control-plane-client.js';
import { watchLease, type Lease } from './watch-lease.js';

/** Options of `watchJobLease`. */
export interface WatchJobLeaseOptions {
  work: WorkApi;
  job: Pick<ClaimedJob, 'id' | 'leaseToken'>;
  /** How long each heartbeat waits for a cancel, and so how often the claim is extended, in ms (default 1000; keep it well under the lease, `leaseSeconds`: 10 s by default). */
  intervalMs?: number;
  /** Heartbeat errors (the database briefly unreachable); the next beat retries. */
  onError?: (error: unknown) => void;
}

/** A claim being kept alive. */
export type JobLease = Lease;

/**
 * Heartbeats a claimed job until stopped, extending its claim, and aborts `signal` as soon as a
 * heartbeat says the job was cancelled or taken over, so the running turn stops within one interval.
 */
export function watchJobLease(options: WatchJobLeaseOptions): JobLease {
  return watchLease({
    heartbeat: (waitMs, signal) => options.work.heartbeat({ jobId: options.job.id, leaseToken: options.job.leaseToken, waitMs }, { signal }),
    intervalMs: options.intervalMs,
    onError: options.onError,
    messages: { cancelled: 'The job was cancelled.', lost: 'Another worker took over the job.' },
  });
}
