import { inputSchemas, parseInput, workflowInputSchemas, type CallOptions, type ControlPlaneClient, type HeartbeatResult } from '@core/control-plane-client';
import type { ChangeFeed } from './change-feed.js';

/** Options of `withLongPolls`. */
export interface LongPollOptions {
  feed: ChangeFeed;
  /** The job and task leases, in seconds: a heartbeat never waits longer than a third of its lease. */
  jobLeaseSeconds: number;
  taskLeaseSeconds: number;
  /**
   * How often a waiting claim looks again without a notification, in ms (default 1000; 250 while the feed is not
   * listening): work that becomes claimable without one (a task whose worker died, an advance due again when the
   * running one ends) is found within this. A claim that looked again and found nothing answers `null` (before
   * `waitMs` ran out), so its caller looks at every kind of work again.
   */
  recheckMs?: number | undefined;
}

/**
 * The long polls of `work.claim`, `tasks.claim`, `work.heartbeat` and `tasks.heartbeat` (`waitMs`), on the change
 * feed (PostgreSQL LISTEN/NOTIFY): a claim tries, and while nothing is claimed waits for a `job` (or `task`)
 * notification and tries again; a notification for the other kinds of work (`task`, `advance`; `job`) ends it with
 * `null` so the caller looks there. A heartbeat extends the claim, waits for its `job:<id>` (`task:<id>`)
 * notification and heartbeats again when one comes. `options.signal` ends any wait at once.
 */
export function withLongPolls(client: ControlPlaneClient, options: LongPollOptions): ControlPlaneClient {
  const { feed } = options;
  const recheckMs = () => (feed.listening ? (options.recheckMs ?? 1000) : 250);
  const isWork = (payload: string) => payload === 'job' || payload === 'task' || payload === 'advance';

  async function claim<T>(kind: 'job' | 'task', waitMs: number, attempt: () => Promise<T | null>, callOptions: CallOptions | undefined): Promise<T | null> {
    const deadline = Date.now() + waitMs;
    if (waitMs > 0) await feed.ready();
    let rechecked = false;
    for (;;) {
      const subscription = feed.subscribe(isWork);
      let claimed: T | null;
      try {
        claimed = await attempt();
      } catch (error) {
        subscription.close();
        throw error;
      }
      const remaining = deadline - Date.now();
      if (claimed !== null || remaining <= 0 || rechecked || callOptions?.signal?.aborted) {
        subscription.close();
        return claimed;
      }
      const payload = await subscription.wait(Math.min(remaining, recheckMs()), callOptions?.signal);
      if (payload !== undefined && payload !== kind) return null;
      // No notification within a recheck: one more try of this kind, then null, so that the caller looks at the other
      // kinds of work too. Work of another kind can be there without a notification having reached this wait: it came
      // between the caller's own look and this wait, or needs none (an advance due again when the running one ends).
      rechecked = payload === undefined;
    }
  }

  async function heartbeat(topic: string, waitMs: number, leaseSeconds: number, beat: () => Promise<HeartbeatResult>, callOptions: CallOptions | undefined): Promise<HeartbeatResult> {
    if (waitMs > 0) await feed.ready();
    const subscription = feed.subscribe((payload) => payload === topic);
    let result: HeartbeatResult;
    try {
      result = await beat();
    } catch (error) {
      subscription.close();
      throw error;
    }
    if (!result.keepRunning || waitMs <= 0) {
      subscription.close();
      return result;
    }
    const changed = await subscription.wait(Math.min(waitMs, (leaseSeconds * 1000) / 3), callOptions?.signal);
    return changed === undefined ? result : beat();
  }

  const { work, tasks } = client;
  return Object.freeze({
    ...client,
    work: Object.freeze({
      ...work,
      async claim(input, callOptions) {
        const { waitMs, ...rest } = parseInput(inputSchemas.claim, input, 'work.claim');
        return claim('job', waitMs ?? 0, () => work.claim(rest), callOptions);
      },
      async heartbeat(input, callOptions) {
        const { waitMs, ...rest } = parseInput(inputSchemas.heartbeat, input, 'work.heartbeat');
        return heartbeat(`job:${rest.jobId}`, waitMs ?? 0, options.jobLeaseSeconds, () => work.heartbeat(rest), callOptions);
      },
    } satisfies ControlPlaneClient['work']),
    tasks: Object.freeze({
      ...tasks,
      async claim(input, callOptions) {
        const { waitMs, ...rest } = parseInput(workflowInputSchemas.claimTask, input, 'tasks.claim');
        return claim('task', waitMs ?? 0, () => tasks.claim(rest), callOptions);
      },
      async heartbeat(input, callOptions) {
        const { waitMs, ...rest } = parseInput(workflowInputSchemas.taskHeartbeat, input, 'tasks.heartbeat');
        return heartbeat(`task:${rest.taskId}`, waitMs ?? 0, options.taskLeaseSeconds, () => tasks.heartbeat(rest), callOptions);
      },
    } satisfies ControlPlaneClient['tasks']),
  });
}
