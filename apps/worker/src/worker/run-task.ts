import { isLeaseLost, watchTaskLease, type ClaimedTask, type ControlPlaneClient, type TaskRecord } from '@core/control-plane-client';
import { AnkoleError, type AgentEvent, type AgentRunState, type ModelGateway } from '@core/runtime';
import type { WebProfile } from '@core/tools-web';
import { runTaskTurn, type TaskTurnResult } from '../task-turn.js';
import { createTranscriptRecorder } from './transcript-recorder.js';
import { backgroundTurnApprovals, heldCalls, type WorkerApprovalRules } from './worker-approval-policy.js';

/** What happened to a workflow task in the worker, for logs and UIs. */
export type WorkerTaskEvent =
  | { type: 'task.claimed'; task: ClaimedTask }
  /** Its result was accepted and stored; the workflow advances. */
  | { type: 'task.succeeded'; task: TaskRecord; durationMs: number }
  /** Failed (no result after the reminders, steps used up, model endpoint down): the script's `task()` rejects. */
  | { type: 'task.failed'; task: TaskRecord; error: string; durationMs: number }
  /** Cancelled (it or its workflow) while it ran: the turn was aborted. */
  | { type: 'task.cancelled'; task: ClaimedTask; durationMs: number }
  /** Handed back to the queue at shutdown, unfinished. */
  | { type: 'task.released'; task: TaskRecord }
  /** Its turn held calls for a person's approval: paused in the control plane (`ankole approvals`), its workflow waits, the slot freed. */
  | { type: 'task.awaiting_approval'; task: TaskRecord; calls: number; durationMs: number }
  /** Another worker holds it now, or the control plane refused this worker's result: nothing stored by this worker. */
  | { type: 'task.lost'; task: ClaimedTask };

/** The per-task parts of a task turn's context the worker supplies (the rest comes from the task and the worker). */
export interface WorkerTaskContext {
  /** The web profile bound to the worker: the task gets web tools only with one. */
  webProfile?: WebProfile;
  /** Whether Brain is enabled for the task's agent (read-only `recall` / `get_page`). */
  brain?: boolean;
}

/** Options of `runClaimedTask`. */
export interface RunClaimedTaskOptions {
  client: ControlPlaneClient;
  task: ClaimedTask;
  gateway: ModelGateway;
  /** The worker's hard stop: aborted when the shutdown grace period is over (the task is then handed back). */
  hardStop: AbortSignal;
  context: (task: ClaimedTask) => Promise<WorkerTaskContext> | WorkerTaskContext;
  heartbeatIntervalMs?: number;
  maxSteps?: number;
  toolTimeoutMs?: number;
  emit: (event: WorkerTaskEvent | { type: 'worker.error'; error: unknown }) => void;
  onTurnEvent?: (task: ClaimedTask, event: AgentEvent) => void;
  /** The approval rules of the task's agent (see `RunWorkerOptions.approvals`); none: every call runs. */
  approvals?: (agentId: string) => Promise<WorkerApprovalRules | undefined> | WorkerApprovalRules | undefined;
  /** Keep the turn's transcript in the control plane (default true; see `createTranscriptRecorder`). */
  recordTranscript?: boolean;
  /** How long transcript events wait before they are sent together (default 1000 ms). */
  transcriptFlushMs?: number;
}

/**
 * Runs one claimed workflow task as a task turn with a lease watcher: the task heartbeats while it runs; a cancel
 * (of the task or its workflow) or a takeover aborts the turn; at the hard stop an unfinished task is handed back
 * (`tasks.release`). The turn itself stores the result or fails the task (`runTaskTurn`). Never rejects: a failure to
 * store anything is reported as `worker.error` (the lease then expires and another worker runs the task).
 * Resolves with what became of the task.
 */
export async function runClaimedTask(options: RunClaimedTaskOptions): Promise<WorkerTaskEvent['type']> {
  const { client, task, emit } = options;
  const started = Date.now();
  const lease = watchTaskLease({
    tasks: client.tasks,
    task,
    intervalMs: options.heartbeatIntervalMs ?? 1000,
    onError: (error) => emit({ type: 'worker.error', error }),
  });
  const signal = AbortSignal.any([lease.signal, options.hardStop]);
  const recorder =
    options.recordTranscript === false
      ? undefined
      : createTranscriptRecorder({
          transcripts: client.transcripts,
          owner: { taskId: task.id },
          leaseToken: task.leaseToken,
          ...(options.transcriptFlushMs === undefined ? {} : { flushIntervalMs: options.transcriptFlushMs }),
          onError: (error) => emit({ type: 'worker.error', error }),
        });
  try {
    let result: TaskTurnResult;
    try {
      const extra = await options.context(task);
      const claim = { taskId: task.id, leaseToken: task.leaseToken };
      const approvals = backgroundTurnApprovals({
        rules: await options.approvals?.(task.agentId),
        decisions: task.resume?.decisions,
        journal: {
          start: async (callId) => (await client.tasks.startApprovedCall({ ...claim, callId })).run,
          finish: (callId, output) => client.tasks.finishApprovedCall({ ...claim, callId, output }),
        },
        onError: (error) => emit({ type: 'worker.error', error }),
      });
      result = await runTaskTurn({
        context: { task, controlPlane: client, signal, ...extra },
        gateway: options.gateway,
        ...approvals,
        ...(task.resume === undefined ? {} : { resume: { state: task.resume.runState as AgentRunState, decisions: task.resume.decisions } }),
        ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
        ...(options.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: options.toolTimeoutMs }),
        // A waiting heartbeat hears at once that the task finished when its result is stored, before the call's output
        // reaches the turn: that must not abort the turn as "lost". The abort waits for each submission, and an
        // accepted one stops the watcher.
        onSubmission: (stored) => lease.defer(stored),
        onResultAccepted: () => lease.stop(),
        onEvent: (event: AgentEvent) => {
          recorder?.record(event);
          options.onTurnEvent?.(task, event);
        },
      });
      await recorder?.close();
    } catch (error) {
      await recorder?.close();
      // A database failure: leave the task to its lease. Anything else (no home for the agent, a stored schema that
      // cannot be sent) cannot get better by retrying: fail the task so the script sees why.
      if (error instanceof AnkoleError && error.kind === 'runtime') throw error;
      lease.stop();
      const message = `The task turn could not run: ${error instanceof Error ? error.message : String(error)}`;
      const failed = await client.tasks.fail({ taskId: task.id, leaseToken: task.leaseToken, error: message });
      emit({ type: 'task.failed', task: failed, error: message, durationMs: Date.now() - started });
      return 'task.failed';
    }
    lease.stop();
    const durationMs = Date.now() - started;
    if (result.status === 'submitted') {
      emit({ type: 'task.succeeded', task: result.task!, durationMs });
      return 'task.succeeded';
    }
    if (result.status === 'failed') {
      emit({ type: 'task.failed', task: result.task!, error: result.error ?? 'The task failed.', durationMs });
      return 'task.failed';
    }
    if (result.status === 'awaiting_approval' && result.outcome.runState !== undefined && lease.reason() === undefined) {
      const calls = heldCalls(result.outcome.runState);
      const held = await client.tasks.hold({
        taskId: task.id,
        leaseToken: task.leaseToken,
        runState: result.outcome.runState as unknown as Record<string, unknown>,
        calls,
      });
      if (held.status === 'awaiting_approval') {
        emit({ type: 'task.awaiting_approval', task: held, calls: calls.length, durationMs });
        return 'task.awaiting_approval';
      }
    }
    if (lease.reason() === 'cancelled') {
      emit({ type: 'task.cancelled', task, durationMs });
      return 'task.cancelled';
    }
    if (result.status === 'aborted' && lease.reason() === undefined && options.hardStop.aborted) {
      const released = await client.tasks.release({ taskId: task.id, leaseToken: task.leaseToken });
      emit({ type: 'task.released', task: released });
      return 'task.released';
    }
    emit({ type: 'task.lost', task });
    return 'task.lost';
  } catch (error) {
    // A 409 lease_lost: another worker holds the task now (nothing of this turn was stored). Anything else: a failure.
    emit(isLeaseLost(error) ? { type: 'task.lost', task } : { type: 'worker.error', error });
    return 'task.lost';
  } finally {
    lease.stop();
    await recorder?.close();
  }
}
