import type { AdvanceReport, ClaimedJob, ClaimedTask, ControlPlaneClient, JobRecord } from '@core/control-plane-client';
import type { AgentEvent, ModelGateway } from '@core/runtime';
import type { TextTurnContext } from '../turn-context.js';
import { retryModelCalls, type ModelRetry, type ModelRetryPolicy } from './retry-model-calls.js';
import { runClaimedJob } from './run-job.js';
import { denialsOf, type TurnDenials } from './run-leased-turn.js';
import { runClaimedTask, type WorkerTaskContext, type WorkerTaskEvent } from './run-task.js';
import { withStorableRecords } from './storable-records.js';
import type { WorkerApprovalRules } from './worker-approval-policy.js';

/** Something that happened in the worker, for logs and UIs. */
export type WorkerEvent =
  | { type: 'job.claimed'; job: ClaimedJob }
  /** `deniedCalls` (set when the turn had any): its calls the agent's config, a person or no one at hand denied. */
  | ({ type: 'job.succeeded'; job: JobRecord; durationMs: number } & TurnDenials)
  | ({ type: 'job.failed'; job: JobRecord; error: string; durationMs: number } & TurnDenials)
  /** Cancelled by its owner while it ran: the turn was aborted. */
  | ({ type: 'job.cancelled'; job: JobRecord; durationMs: number } & TurnDenials)
  /** Handed back to the queue at shutdown, unfinished. */
  | { type: 'job.released'; job: JobRecord }
  /** Its turn held calls for a person's approval: paused in the control plane (`ankole approvals`), the slot freed. */
  | ({ type: 'job.awaiting_approval'; job: JobRecord; calls: number; durationMs: number } & TurnDenials)
  /** Another worker holds it now (this worker's claim expired, or the control plane refused its result as `lease_lost`): nothing stored. */
  | { type: 'job.lost'; job: ClaimedJob }
  /** Workflow task turns (see `runClaimedTask`). */
  | WorkerTaskEvent
  /** A workflow advance ran in this worker (its script replayed in the sandbox). */
  | { type: 'advance.ran'; report: AdvanceReport }
  /** A model call of the job's turn failed for a passing reason (unreachable, 429, 5xx): tried again after `delayMs`. */
  | ({ type: 'job.retrying'; job: ClaimedJob; error: string } & Omit<ModelRetry, 'error'>)
  /** The same for a workflow task's turn. */
  | ({ type: 'task.retrying'; task: ClaimedTask; error: string } & Omit<ModelRetry, 'error'>)
  | { type: 'worker.error'; error: unknown };

/** Options of `runWorker`. */
export interface RunWorkerOptions {
  /**
   * The control plane: claims, heartbeats and results go through it; turns get it for their schedule and job tools.
   * The worker's own records are sent with NUL characters and lone surrogates replaced by U+FFFD (`withStorableRecords`).
   */
  client: ControlPlaneClient;
  /** This worker's name in the job records (e.g. `host-pid`). */
  workerId: string;
  /** Most turns running at once (default 1). */
  concurrency?: number;
  /** The model every turn talks to. */
  gateway: ModelGateway;
  /**
   * How a model call that fails for a passing reason (connection refused, timeout, HTTP 429, HTTP 5xx) is tried
   * again, in place, while the job or task keeps its claim (default: 6 tries, pauses from 1 s doubling to 30 s).
   * Once the tries are used up the turn fails with the last error.
   */
  modelRetry?: ModelRetryPolicy;
  /**
   * The turn context of a job (home, skills, web profile, ...) for its agent. `runWorker` then sets
   * `agent`, `signal`, `controlPlane` and `allowJobs` itself (a background job's turn never may start jobs).
   */
  turnContext: (job: ClaimedJob, signal: AbortSignal) => Promise<Omit<TextTurnContext, 'signal'>> | Omit<TextTurnContext, 'signal'>;
  /** Aborting it stops the worker: no more claims, running turns get `shutdownGraceMs` to finish, the rest are handed back. */
  signal: AbortSignal;
  /** How long running turns may go on after `signal` aborts (default 30 000 ms; 0 hands them back at once). */
  shutdownGraceMs?: number;
  /** Aborting it ends the grace period early (a second Ctrl-C). */
  forceSignal?: AbortSignal;
  /** How long to wait between claims when the queue is empty and `claimWaitMs` is 0, or after a failed claim (default 500 ms). */
  pollIntervalMs?: number;
  /**
   * Long poll: how long an idle worker's job claim waits on the control plane for work (default 10 000 ms). It answers
   * as soon as a job is queued (claiming it), or a workflow task or advance is (then the worker looks for those), so
   * new work starts at once, in process and over HTTP alike. 0: claim and sleep `pollIntervalMs` instead.
   */
  claimWaitMs?: number;
  /**
   * How often a running job's claim is extended (default 1000 ms). Each heartbeat waits that long on the control plane
   * for a change, so a cancel (or another worker taking the job over) stops the turn at once, not at the next beat.
   */
  heartbeatIntervalMs?: number;
  maxSteps?: number;
  toolTimeoutMs?: number;
  onEvent?: (event: WorkerEvent) => void;
  /** Each turn's agent events, with the job they belong to. */
  onTurnEvent?: (job: ClaimedJob, event: AgentEvent) => void;
  /**
   * The approval rules of an agent's background turns, jobs and workflow tasks alike (`readWorkerApprovalRules`): a
   * call they hold pauses the job or task `awaiting_approval` until a person decides it; then any worker resumes the
   * turn from the stored run state, and each approved call runs exactly once (journaled in the control plane). None:
   * every call runs.
   */
  approvals?: (agentId: string) => Promise<WorkerApprovalRules | undefined> | WorkerApprovalRules | undefined;
  /** What a workflow task turn gets besides its task: the web profile, whether Brain is on (default: neither). */
  taskContext?: (task: ClaimedTask) => Promise<WorkerTaskContext> | WorkerTaskContext;
  /** Each task turn's agent events, with the task they belong to. */
  onTaskTurnEvent?: (task: ClaimedTask, event: AgentEvent) => void;
  /**
   * Keep each turn's transcript (its events, in batches) in the control plane, per claim of a job or task (default
   * true). A transcript that cannot be stored is a `worker.error`; the job or task goes on.
   */
  recordTranscripts?: boolean;
  /** How long transcript events wait before they are sent together (default 1000 ms). */
  transcriptFlushMs?: number;
}

/** What a worker did before it stopped. */
export interface WorkerSummary {
  succeeded: number;
  failed: number;
  cancelled: number;
  released: number;
  lost: number;
  /** Workflow task turns, by how they ended. */
  tasks: { succeeded: number; failed: number; cancelled: number; released: number; lost: number; held: number };
  /** Workflow advances this worker ran. */
  advances: number;
}

/**
 * The long-running worker: claims scheduled turns and background jobs from the control plane's queue
 * and runs each as a text turn (the per-turn assembly of `runTextTurn`), `concurrency` at a time. A
 * running job heartbeats; when its owner cancels it (or another worker took it over after this one
 * stalled) the turn is aborted. The final answer or the failure is stored. Workflows share the loop:
 * each round first runs the due workflow advances (in this process, in the sandbox), then claims a
 * workflow task (run as a task turn by `runClaimedTask`, with the same lease, cancel and hand-back rules),
 * then a job; tasks and jobs share the `concurrency` slots (while all are busy, due advances still run
 * every `pollIntervalMs`). A model call that fails for a passing reason is retried in place with backoff
 * (`modelRetry`), so a short outage or a rate limit never fails a job or task on its first try. Resolves once `signal` aborted and every
 * running turn finished or was handed back.
 */
export async function runWorker(options: RunWorkerOptions): Promise<WorkerSummary> {
  // Its own records (answers, run states, transcripts) with text PostgreSQL cannot store replaced, not refused.
  const client = withStorableRecords(options.client);
  const concurrency = options.concurrency ?? 1;
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const claimWaitMs = options.claimWaitMs ?? 10_000;
  const summary: WorkerSummary = {
    succeeded: 0,
    failed: 0,
    cancelled: 0,
    released: 0,
    lost: 0,
    tasks: { succeeded: 0, failed: 0, cancelled: 0, released: 0, lost: 0, held: 0 },
    advances: 0,
  };
  const running = new Set<Promise<void>>();
  const hardStop = new AbortController();
  const emit = (event: WorkerEvent) => options.onEvent?.(event);

  const runJob = async (job: ClaimedJob) => {
    const outcome = await runClaimedJob({
      client,
      job,
      gateway: retryModelCalls(options.gateway, {
        ...options.modelRetry,
        onRetry: ({ error, ...retry }) => emit({ type: 'job.retrying', job, ...retry, error: describeError(error) }),
      }),
      hardStop: hardStop.signal,
      turnContext: options.turnContext,
      approvals: options.approvals,
      heartbeatIntervalMs: options.heartbeatIntervalMs,
      maxSteps: options.maxSteps,
      toolTimeoutMs: options.toolTimeoutMs,
      recordTranscript: options.recordTranscripts,
      transcriptFlushMs: options.transcriptFlushMs,
      onTurnEvent: options.onTurnEvent,
      onError: (error) => emit({ type: 'worker.error', error }),
    });
    switch (outcome.ended) {
      case 'succeeded':
        summary.succeeded += 1;
        emit({ type: 'job.succeeded', job: outcome.record, durationMs: outcome.durationMs, ...denialsOf(outcome) });
        break;
      case 'failed':
        summary.failed += 1;
        emit({ type: 'job.failed', job: outcome.record, error: outcome.error ?? outcome.record.error ?? 'The job failed.', durationMs: outcome.durationMs, ...denialsOf(outcome) });
        break;
      case 'cancelled':
        summary.cancelled += 1;
        emit({ type: 'job.cancelled', job: outcome.record!, durationMs: outcome.durationMs, ...denialsOf(outcome) });
        break;
      case 'released':
        summary.released += 1;
        emit({ type: 'job.released', job: outcome.record });
        break;
      case 'awaiting_approval':
        emit({ type: 'job.awaiting_approval', job: outcome.record, calls: outcome.calls, durationMs: outcome.durationMs, ...denialsOf(outcome) });
        break;
      case 'lost':
        summary.lost += 1;
        emit({ type: 'job.lost', job });
        break;
      default:
        // Storing the result failed (database unreachable): the claim expires and another worker retries the job.
        emit({ type: 'worker.error', error: outcome.error });
    }
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (options.signal.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        options.signal.removeEventListener('abort', done);
        resolve();
      }
      options.signal.addEventListener('abort', done, { once: true });
    });

  const stopped = new Promise<void>((resolve) => {
    if (options.signal.aborted) resolve();
    else options.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  /** Runs the due workflow advances (at most a few per round, so turns are not starved). */
  const runAdvances = async () => {
    for (let count = 0; count < MAX_ADVANCES_PER_ROUND && !options.signal.aborted; count += 1) {
      const report = await client.advances.runNext({ workerId: options.workerId });
      if (report === null) return;
      summary.advances += 1;
      emit({ type: 'advance.ran', report });
    }
  };

  /** Claims a workflow task and starts its turn; false when there was none. */
  const startTask = async (): Promise<boolean> => {
    const claimed = await client.tasks.claim({ workerId: options.workerId });
    if (claimed === null) return false;
    if (options.signal.aborted) {
      await client.tasks.release({ taskId: claimed.id, leaseToken: claimed.leaseToken });
      return true;
    }
    emit({ type: 'task.claimed', task: claimed });
    const turn: Promise<void> = runClaimedTask({
      client,
      task: claimed,
      gateway: retryModelCalls(options.gateway, {
        ...options.modelRetry,
        onRetry: ({ error, ...retry }) => emit({ type: 'task.retrying', task: claimed, ...retry, error: describeError(error) }),
      }),
      hardStop: hardStop.signal,
      context: options.taskContext ?? (() => ({})),
      emit,
      ...(options.heartbeatIntervalMs === undefined ? {} : { heartbeatIntervalMs: options.heartbeatIntervalMs }),
      ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
      ...(options.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: options.toolTimeoutMs }),
      ...(options.onTaskTurnEvent === undefined ? {} : { onTurnEvent: options.onTaskTurnEvent }),
      ...(options.approvals === undefined ? {} : { approvals: options.approvals }),
      ...(options.recordTranscripts === undefined ? {} : { recordTranscript: options.recordTranscripts }),
      ...(options.transcriptFlushMs === undefined ? {} : { transcriptFlushMs: options.transcriptFlushMs }),
    })
      .then((ended) => {
        summary.tasks[ended === 'task.awaiting_approval' ? 'held' : (ended.slice('task.'.length) as keyof WorkerSummary['tasks'])] += 1;
      })
      .finally(() => running.delete(turn));
    running.add(turn);
    return true;
  };

  while (!options.signal.aborted) {
    if (running.size >= concurrency) {
      // Every slot busy: advances are not turns, so due ones still run each poll (a workflow whose tasks finished
      // moves on, fans out or finishes without waiting for a slot).
      await Promise.race([...running, stopped, sleep(pollIntervalMs)]);
      await runAdvances().catch((error: unknown) => emit({ type: 'worker.error', error }));
      continue;
    }
    let startedTask = false;
    try {
      await runAdvances();
      startedTask = await startTask();
    } catch (error) {
      emit({ type: 'worker.error', error });
    }
    if (startedTask) continue;
    let job: ClaimedJob | null = null;
    let claimFailed = false;
    const claimBegan = Date.now();
    try {
      job = await client.work.claim({ workerId: options.workerId, ...(claimWaitMs > 0 ? { waitMs: claimWaitMs } : {}) }, { signal: options.signal });
    } catch (error) {
      // An aborted long poll is the worker stopping, not an error.
      if (!options.signal.aborted) emit({ type: 'worker.error', error });
      claimFailed = true;
    }
    if (job === null) {
      // A long poll already waited (or answered early because other work came up); a control plane that does not
      // wait, or a failed claim, gets a pause so the loop never spins.
      await sleep(claimWaitMs > 0 && !claimFailed ? Math.max(0, claimBegan + Math.min(pollIntervalMs, 50) - Date.now()) : pollIntervalMs);
      continue;
    }
    if (options.signal.aborted) {
      // Stopped while claiming: hand it straight back.
      await client.work.release({ jobId: job.id, leaseToken: job.leaseToken }).catch((error: unknown) => emit({ type: 'worker.error', error }));
      break;
    }
    emit({ type: 'job.claimed', job });
    const task: Promise<void> = runJob(job).finally(() => running.delete(task));
    running.add(task);
  }

  // Shutdown: let running turns finish within the grace period, then abort and hand back the rest.
  if (running.size > 0) {
    const grace = options.shutdownGraceMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    const stopNow = () => hardStop.abort(new Error('The worker is shutting down.'));
    if (grace <= 0) stopNow();
    else timer = setTimeout(stopNow, grace);
    options.forceSignal?.addEventListener('abort', stopNow, { once: true });
    await Promise.all([...running]);
    if (timer !== undefined) clearTimeout(timer);
    options.forceSignal?.removeEventListener('abort', stopNow);
  }
  return summary;
}

/** Most workflow advances one round of the loop runs before it looks for turns again. */
const MAX_ADVANCES_PER_ROUND = 20;

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
