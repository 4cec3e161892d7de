import { isLeaseLost, type ApprovalDecisionRecord, type JobLease, type TaskLease, type TranscriptApi } from '@core/control-plane-client';
import { createDeniedCallCounter, type AgentEvent, type AgentRunState, type DeniedCallCounts } from '@core/runtime';
import type { ApprovedCallJournal } from './journal-approved-calls.js';
import { createTranscriptRecorder } from './transcript-recorder.js';
import { backgroundTurnApprovals, heldCalls, type BackgroundTurnApprovals, type WorkerApprovalRules } from './worker-approval-policy.js';

/** A claimed job or task: what every leased turn starts from. */
export interface LeasedClaim {
  id: string;
  agentId: string;
  leaseToken: string;
  /** A turn resumed after a person decided its held calls: the stored run state and the decisions. */
  resume?: { runState: unknown; decisions: Record<string, ApprovalDecisionRecord> } | undefined;
}

/** The calls under the claim's lease, for jobs (`work.*`) or tasks (`tasks.*`). */
export interface LeasedWork<Record extends { status: string }> {
  /** Starts heartbeating the claim (`watchJobLease`, `watchTaskLease`). */
  watch(options: { intervalMs: number; onError: (error: unknown) => void }): JobLease | TaskLease;
  /** Where its transcript goes (`client.transcripts`, as the claim's owner). */
  transcripts: Pick<TranscriptApi, 'append'>;
  transcriptOwner: { jobId: string } | { taskId: string };
  /** The approved-call journal of a resumed turn. */
  journal: ApprovedCallJournal;
  /** running → succeeded | failed by this worker, for a turn that ended with an answer (not stored by the turn itself). */
  settle(status: 'succeeded' | 'failed', text: string): Promise<Record>;
  /** The worker's last word on work cancelled while its turn ran (a job's queue entry is closed by it), if any. */
  closeCancelled?(text: string): Promise<Record>;
  /** running → awaiting_approval with the run state and the held calls. */
  hold(runState: AgentRunState, calls: ReturnType<typeof heldCalls>): Promise<Record>;
  /** running → queued (hand-back at the hard stop). */
  release(): Promise<Record>;
}

/** How a leased turn's own run ended (what `run` resolves with). */
export type TurnEnd<Record> =
  /** The turn stored its outcome itself (a task's accepted `submit_result`, a task failed by its turn). */
  | { type: 'stored'; status: 'succeeded' | 'failed'; record: Record; error?: string | undefined }
  /** The turn ended with an answer (or a failure) for the worker to store (`LeasedWork.settle`). */
  | { type: 'answered'; status: 'succeeded' | 'failed'; text: string }
  /** The approval policy held calls: the run state to store (`LeasedWork.hold`). */
  | { type: 'awaiting_approval'; runState: AgentRunState; text: string }
  /** Aborted (cancel, lost lease, hard stop), or refused by the control plane: nothing stored by the turn. */
  | { type: 'aborted'; text: string };

/** The calls a turn's policy or a person denied, by who denied them; set only when there was at least one. */
export interface TurnDenials {
  deniedCalls?: DeniedCallCounts;
}

/** The `deniedCalls` of an outcome, to spread into the event that reports it (nothing when there were none). */
export function denialsOf(outcome: TurnDenials): TurnDenials {
  return outcome.deniedCalls === undefined ? {} : { deniedCalls: outcome.deniedCalls };
}

/** What became of a leased turn. */
export type LeasedTurnOutcome<Record> =
  | ({ ended: 'succeeded' | 'failed'; record: Record; error?: string | undefined; durationMs: number } & TurnDenials)
  | ({ ended: 'cancelled'; record?: Record | undefined; durationMs: number } & TurnDenials)
  | { ended: 'released'; record: Record }
  | ({ ended: 'awaiting_approval'; record: Record; calls: number; durationMs: number } & TurnDenials)
  /** Another worker holds it now, or the control plane refused this worker's writes as `lease_lost`. */
  | { ended: 'lost' }
  /** Storing the outcome failed (the database unreachable): the lease runs out and another worker retries it. */
  | { ended: 'error'; error: unknown };

/** Options of `runLeasedTurn`. */
export interface RunLeasedTurnOptions<Record extends { status: string }> {
  claim: LeasedClaim;
  work: LeasedWork<Record>;
  /** The worker's hard stop: aborted when the shutdown grace period is over (the unfinished turn is then handed back). */
  hardStop: AbortSignal;
  /** Runs the turn: with the lease's (and the hard stop's) signal, the agent's approvals, and the event sink. */
  run: (turn: { signal: AbortSignal; approvals: BackgroundTurnApprovals; onEvent: (event: AgentEvent) => void }) => Promise<TurnEnd<Record>>;
  /** The approval rules of the claim's agent (none: every call runs). */
  approvals?: ((agentId: string) => Promise<WorkerApprovalRules | undefined> | WorkerApprovalRules | undefined) | undefined;
  heartbeatIntervalMs?: number | undefined;
  /** Keep the turn's transcript in the control plane (default true). */
  recordTranscript?: boolean | undefined;
  transcriptFlushMs?: number | undefined;
  onTurnEvent?: ((event: AgentEvent) => void) | undefined;
  /** Problems that do not end the turn (a heartbeat or a transcript batch that failed). */
  onError: (error: unknown) => void;
}

/**
 * The one lifecycle of leased work, jobs and workflow tasks alike, from the claim on: watch the lease (heartbeats;
 * a cancel or a takeover aborts the turn, the claim settled by this very lease is a clean stop), record the transcript,
 * run the turn with the agent's approvals, then settle or hand back, in this order: stored by the turn itself; lost;
 * cancelled; handed back at the hard stop (a release that finds the work settled reports that instead); paused for
 * approval; settled by the worker with the turn's answer. The outcome counts the turn's denied calls (`deniedCalls`, from
 * its events). Never rejects.
 */
export async function runLeasedTurn<Record extends { status: string }>(options: RunLeasedTurnOptions<Record>): Promise<LeasedTurnOutcome<Record>> {
  const { claim, work, hardStop } = options;
  const started = Date.now();
  const lease = work.watch({ intervalMs: options.heartbeatIntervalMs ?? 1000, onError: options.onError });
  const signal = AbortSignal.any([lease.signal, hardStop]);
  const recorder =
    options.recordTranscript === false
      ? undefined
      : createTranscriptRecorder({
          transcripts: work.transcripts,
          owner: work.transcriptOwner,
          leaseToken: claim.leaseToken,
          ...(options.transcriptFlushMs === undefined ? {} : { flushIntervalMs: options.transcriptFlushMs }),
          onError: options.onError,
        });
  const denials = createDeniedCallCounter();
  const denied = (): TurnDenials => {
    const counts = denials.counts();
    return counts.total === 0 ? {} : { deniedCalls: counts };
  };
  try {
    const approvals = backgroundTurnApprovals({
      rules: await options.approvals?.(claim.agentId),
      decisions: claim.resume?.decisions,
      journal: work.journal,
      onError: options.onError,
    });
    const end = await options.run({
      signal,
      approvals,
      onEvent: (event) => {
        denials.add(event);
        recorder?.record(event);
        options.onTurnEvent?.(event);
      },
    });
    // The transcript's last events go in before the work is settled (never failing it).
    await recorder?.close();
    lease.stop();
    const durationMs = Date.now() - started;
    if (end.type === 'stored') return { ended: end.status, record: end.record, error: end.error, durationMs, ...denied() };
    const reason = lease.reason();
    if (reason === 'lost') return { ended: 'lost' };
    if (reason === 'cancelled') return { ended: 'cancelled', record: await work.closeCancelled?.(end.text), durationMs, ...denied() };
    if (hardStop.aborted && end.type === 'aborted') {
      const record = await work.release();
      // Its outcome reached the control plane before the hand-back did: settled, not handed back.
      if (record.status === 'succeeded' || record.status === 'failed') return { ended: record.status, record, durationMs, ...denied() };
      return { ended: 'released', record };
    }
    if (end.type === 'awaiting_approval') {
      const calls = heldCalls(end.runState);
      const record = await work.hold(end.runState, calls);
      return record.status === 'awaiting_approval' ? { ended: 'awaiting_approval', record, calls: calls.length, durationMs, ...denied() } : { ended: 'lost' };
    }
    if (end.type === 'answered') {
      const record = await work.settle(end.status, end.text);
      return { ended: end.status, record, ...(end.status === 'failed' ? { error: end.text } : {}), durationMs, ...denied() };
    }
    return { ended: 'lost' };
  } catch (error) {
    // A 409 lease_lost: another worker holds it now (nothing of this turn was stored). Anything else: a failure.
    return isLeaseLost(error) ? { ended: 'lost' } : { ended: 'error', error };
  } finally {
    lease.stop();
    await recorder?.close();
  }
}
