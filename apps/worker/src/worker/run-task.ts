import { watchTaskLease, type ClaimedTask, type ControlPlaneClient, type TaskRecord } from '@core/control-plane-client';
import { AnkoleError, type AgentEvent, type AgentRunState, type ModelGateway } from '@core/runtime';
import type { WebProfile } from '@core/tools-web';
import { runTaskTurn, type TaskTurnResult } from '../task-turn.js';
import { denialsOf, runLeasedTurn, type TurnDenials, type TurnEnd } from './run-leased-turn.js';
import { taskTurnFailure } from './task-turn-failure.js';
import type { WorkerApprovalRules } from './worker-approval-policy.js';

/** What happened to a workflow task in the worker, for logs and UIs. */
export type WorkerTaskEvent =
  | { type: 'task.claimed'; task: ClaimedTask }
  /** Its result was accepted and stored; the workflow advances. */
  | ({ type: 'task.succeeded'; task: TaskRecord; durationMs: number } & TurnDenials)
  /** Failed (no result after the reminders, steps used up, model endpoint down): the script's `task()` rejects. */
  | ({ type: 'task.failed'; task: TaskRecord; error: string; durationMs: number } & TurnDenials)
  /** Cancelled (it or its workflow) while it ran: the turn was aborted. */
  | ({ type: 'task.cancelled'; task: ClaimedTask; durationMs: number } & TurnDenials)
  /** Handed back to the queue at shutdown, unfinished. */
  | { type: 'task.released'; task: TaskRecord }
  /** Its turn held calls for a person's approval: paused in the control plane (`ankole approvals`), its workflow waits, the slot freed. */
  | ({ type: 'task.awaiting_approval'; task: TaskRecord; calls: number; durationMs: number } & TurnDenials)
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
 * Runs one claimed workflow task as a task turn through `runLeasedTurn`: the task heartbeats while it runs; a cancel
 * (of the task or its workflow) or a takeover aborts the turn, its own accepted result stops the watch cleanly; at the
 * hard stop an unfinished task is handed back (`tasks.release`). The turn itself stores the result or fails the task
 * (`runTaskTurn`). Never rejects: a failure to store anything is reported as `worker.error` (the lease then expires
 * and another worker runs the task). Resolves with what became of the task.
 */
export async function runClaimedTask(options: RunClaimedTaskOptions): Promise<WorkerTaskEvent['type']> {
  const { client, task, emit } = options;
  const claim = { taskId: task.id, leaseToken: task.leaseToken };
  const outcome = await runLeasedTurn<TaskRecord>({
    claim: task,
    work: {
      watch: ({ intervalMs, onError }) => watchTaskLease({ tasks: client.tasks, task, intervalMs, onError }),
      transcripts: client.transcripts,
      transcriptOwner: { taskId: task.id },
      journal: {
        start: async (callId) => (await client.tasks.startApprovedCall({ ...claim, callId })).run,
        finish: (callId, output) => client.tasks.finishApprovedCall({ ...claim, callId, output }),
      },
      settle: (_status, error) => client.tasks.fail({ ...claim, error }),
      hold: (runState, calls) => client.tasks.hold({ ...claim, runState: runState as unknown as Record<string, unknown>, calls }),
      release: () => client.tasks.release(claim),
    },
    hardStop: options.hardStop,
    approvals: options.approvals,
    heartbeatIntervalMs: options.heartbeatIntervalMs,
    recordTranscript: options.recordTranscript,
    transcriptFlushMs: options.transcriptFlushMs,
    onTurnEvent: (event) => options.onTurnEvent?.(task, event),
    onError: (error) => emit({ type: 'worker.error', error }),
    run: async ({ signal, approvals, onEvent }): Promise<TurnEnd<TaskRecord>> => {
      let result: TaskTurnResult;
      try {
        const extra = await options.context(task);
        result = await runTaskTurn({
          context: { task, controlPlane: client, signal, ...extra },
          gateway: options.gateway,
          ...approvals,
          ...(task.resume === undefined ? {} : { resume: { state: task.resume.runState as AgentRunState, decisions: task.resume.decisions } }),
          ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
          ...(options.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: options.toolTimeoutMs }),
          onEvent,
        });
      } catch (error) {
        // A database failure: leave the task to its lease. Anything else (no home for the agent, a stored schema that
        // cannot be sent) cannot get better by retrying: fail the task so the script sees why.
        if (error instanceof AnkoleError && error.kind === 'runtime') throw error;
        return { type: 'answered', status: 'failed', text: taskTurnFailure(error) };
      }
      if (result.status === 'submitted') return { type: 'stored', status: 'succeeded', record: result.task! };
      if (result.status === 'failed') return { type: 'stored', status: 'failed', record: result.task!, error: result.error ?? 'The task failed.' };
      if (result.status === 'awaiting_approval' && result.outcome.runState !== undefined) return { type: 'awaiting_approval', runState: result.outcome.runState, text: '' };
      return { type: 'aborted', text: '' };
    },
  });
  switch (outcome.ended) {
    case 'succeeded':
      emit({ type: 'task.succeeded', task: outcome.record, durationMs: outcome.durationMs, ...denialsOf(outcome) });
      return 'task.succeeded';
    case 'failed': {
      const error = outcome.error ?? outcome.record.error ?? 'The task failed.';
      emit({ type: 'task.failed', task: outcome.record, error, durationMs: outcome.durationMs, ...denialsOf(outcome) });
      return 'task.failed';
    }
    case 'awaiting_approval':
      emit({ type: 'task.awaiting_approval', task: outcome.record, calls: outcome.calls, durationMs: outcome.durationMs, ...denialsOf(outcome) });
      return 'task.awaiting_approval';
    case 'cancelled':
      emit({ type: 'task.cancelled', task, durationMs: outcome.durationMs, ...denialsOf(outcome) });
      return 'task.cancelled';
    case 'released':
      emit({ type: 'task.released', task: outcome.record });
      return 'task.released';
    case 'error':
      emit({ type: 'worker.error', error: outcome.error });
      return 'task.lost';
    default:
      emit({ type: 'task.lost', task });
      return 'task.lost';
  }
}
