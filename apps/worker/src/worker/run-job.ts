import { watchJobLease, type ClaimedJob, type ControlPlaneClient, type JobRecord } from '@core/control-plane-client';
import type { AgentEvent, AgentRunState, ModelGateway } from '@core/runtime';
import { runTextTurn } from '../text-turn.js';
import type { TextTurnContext } from '../turn-context.js';
import { runLeasedTurn, type LeasedTurnOutcome, type TurnEnd } from './run-leased-turn.js';
import type { WorkerApprovalRules } from './worker-approval-policy.js';

/** Options of `runClaimedJob`. */
export interface RunClaimedJobOptions {
  client: ControlPlaneClient;
  job: ClaimedJob;
  /** The model (already retrying passing failures, `retryModelCalls`). */
  gateway: ModelGateway;
  /** The worker's hard stop: aborted when the shutdown grace period is over (the job is then handed back). */
  hardStop: AbortSignal;
  /** The job's turn context for its agent (see `RunWorkerOptions.turnContext`). */
  turnContext: (job: ClaimedJob, signal: AbortSignal) => Promise<Omit<TextTurnContext, 'signal'>> | Omit<TextTurnContext, 'signal'>;
  approvals?: ((agentId: string) => Promise<WorkerApprovalRules | undefined> | WorkerApprovalRules | undefined) | undefined;
  heartbeatIntervalMs?: number | undefined;
  maxSteps?: number | undefined;
  toolTimeoutMs?: number | undefined;
  recordTranscript?: boolean | undefined;
  transcriptFlushMs?: number | undefined;
  onTurnEvent?: ((job: ClaimedJob, event: AgentEvent) => void) | undefined;
  onError: (error: unknown) => void;
}

/**
 * Runs one claimed job as a text turn through `runLeasedTurn`: its lease heartbeats while it runs; a cancel or a
 * takeover aborts the turn; at the hard stop it is handed back (`work.release`); otherwise the worker stores the final
 * answer (`work.complete`) or the failure (`work.fail`), or the held calls (`work.hold`). Never rejects.
 */
export function runClaimedJob(options: RunClaimedJobOptions): Promise<LeasedTurnOutcome<JobRecord>> {
  const { client, job } = options;
  const claim = { jobId: job.id, leaseToken: job.leaseToken };
  return runLeasedTurn<JobRecord>({
    claim: job,
    work: {
      watch: ({ intervalMs, onError }) => watchJobLease({ work: client.work, job, intervalMs, onError }),
      transcripts: client.transcripts,
      transcriptOwner: { jobId: job.id },
      journal: {
        start: async (callId) => (await client.work.startApprovedCall({ ...claim, callId })).run,
        finish: (callId, output) => client.work.finishApprovedCall({ ...claim, callId, output }),
      },
      settle: (status, text) => (status === 'succeeded' ? client.work.complete({ ...claim, finalAnswer: text }) : client.work.fail({ ...claim, error: text })),
      // A cancelled job's queue entry is closed by its worker's last word.
      closeCancelled: (text) => client.work.complete({ ...claim, finalAnswer: text }),
      hold: (runState, calls) => client.work.hold({ ...claim, runState: runState as unknown as Record<string, unknown>, calls }),
      release: () => client.work.release(claim),
    },
    hardStop: options.hardStop,
    approvals: options.approvals,
    heartbeatIntervalMs: options.heartbeatIntervalMs,
    recordTranscript: options.recordTranscript,
    transcriptFlushMs: options.transcriptFlushMs,
    onTurnEvent: (event) => options.onTurnEvent?.(job, event),
    onError: options.onError,
    run: async ({ signal, approvals, onEvent }): Promise<TurnEnd<JobRecord>> => {
      try {
        const base = await options.turnContext(job, signal);
        const context: TextTurnContext = { ...base, agent: job.agentId, signal, controlPlane: client, allowJobs: job.allowJobs };
        const { outcome } = await runTextTurn({
          context,
          gateway: options.gateway,
          input: job.prompt,
          ...approvals,
          ...(job.resume === undefined ? {} : { resume: { state: job.resume.runState as AgentRunState, decisions: job.resume.decisions } }),
          ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
          ...(options.toolTimeoutMs === undefined ? {} : { toolTimeoutMs: options.toolTimeoutMs }),
          onEvent,
        });
        if (outcome.reason === 'aborted') return { type: 'aborted', text: outcome.text };
        if (outcome.reason === 'awaiting_approval' && 'runState' in outcome && outcome.runState !== undefined) {
          return { type: 'awaiting_approval', runState: outcome.runState, text: outcome.text };
        }
        if (outcome.reason === 'completed' || outcome.reason === 'terminated') return { type: 'answered', status: 'succeeded', text: outcome.text };
        return { type: 'answered', status: 'failed', text: outcome.error ?? describeEnd(outcome.reason) };
      } catch (error) {
        return { type: 'answered', status: 'failed', text: error instanceof Error ? error.message : String(error) };
      }
    },
  });
}

function describeEnd(reason: string): string {
  switch (reason) {
    case 'max_steps':
      return 'The turn used its whole step budget and the model still wanted tools.';
    case 'incomplete':
      return "The model's response was cut short and the turn could not go on.";
    case 'aborted':
      return 'The turn was aborted.';
    default:
      return 'The model endpoint failed.';
  }
}
