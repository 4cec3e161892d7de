import type { AgentEvent } from '../loop/agent-events.js';
import { callDenial, type DenialSource } from './call-denial.js';
import type { CallGateAnswer, FunctionCallItem } from './dispatch-tool-calls.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';

/** One call that needs approval, as the approval policy sees it. */
export interface ApprovalRequest {
  callId: string;
  /** The tool's name (without namespace). */
  toolName: string;
  namespace?: string;
  tool: AnyWorkerAgentTool;
  /** The validated (and repaired) params the tool would run with. */
  params: unknown;
  /** The tool's activity label for this call ("Deleting notes.md"). */
  label: string;
  /** The model call (step) the call came from. */
  step: number;
}

/**
 * What an approval policy answers: `allow` runs the call; `deny` gives it an error output that says who denied it
 * and why (`reason`, seen by the model), and the turn goes on; `ask` pauses the turn once the other calls of the
 * response are done: `runAgentLoop` ends `awaiting_approval` with a run state to resume from.
 *
 * A `deny` says who denied (`by`): `config` when a rule of the agent's configuration forbids the call, `person` when
 * a person asked about it said no, `unattended` when it needs a person and no one could be asked (no terminal, no
 * answer). Left out, it is `person` (what every denial meant before `by` existed). The model's output is worded for
 * it (see `declinedMessage`), and the `approval.decided` and `activity.completed` events carry it.
 */
export type ApprovalDecision = { action: 'allow' } | { action: 'deny'; reason?: string; by?: DenialSource } | { action: 'ask' };

/**
 * Decides each call that needs approval (see `WorkerAgentTool.needsApproval`); calls that need none never reach it.
 * May be async (a terminal prompt); calls of the same response that need no approval run meanwhile, as their
 * ordering allows. A policy that throws denies the call as `unattended` (no one could decide it).
 */
export type ApprovalPolicy = (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>;

/** A person's decision on one held call, given when resuming: approved, or declined with an optional reason (a denial `by` a `person`). */
export type PendingCallDecision = { approved: true } | { approved: false; reason?: string };

/**
 * Whether a call of `tool` with these validated params needs approval: the tool's `needsApproval` (a function that
 * throws counts as "needs it"); for a tool object without the field, destructive and not read-only.
 */
export function callNeedsApproval(tool: AnyWorkerAgentTool, params: unknown): boolean {
  const needsApproval = (tool as { needsApproval?: AnyWorkerAgentTool['needsApproval'] }).needsApproval;
  if (needsApproval === undefined) return tool.isDestructive && !tool.isReadOnly;
  if (typeof needsApproval === 'boolean') return needsApproval;
  try {
    return needsApproval(params) !== false;
  } catch {
    return true;
  }
}

/** What `approvalGate` needs from the loop. */
export interface ApprovalGateOptions {
  policy: ApprovalPolicy | undefined;
  step: number;
  emit: (event: AgentEvent) => void;
  /** Decisions given on resume, by call id: a held call with one is run or declined without asking the policy again. */
  decisions?: Readonly<Record<string, PendingCallDecision>>;
  /** Call ids held before (on resume): without a decision they stay held. */
  held?: ReadonlySet<string>;
}

/**
 * The dispatch gate of one step: calls needing no approval run; a held call decided on resume follows its decision;
 * the others are put to the policy (no policy: they run), with `approval.requested` / `approval.decided` events.
 * Answers at once (no promise) unless the policy is asked.
 */
export function approvalGate(options: ApprovalGateOptions) {
  const { policy, step, emit } = options;
  return (call: FunctionCallItem, tool: AnyWorkerAgentTool, params: unknown, label: string): CallGateAnswer | Promise<CallGateAnswer> => {
    const held = options.held?.has(call.call_id) === true;
    if (!held && (policy === undefined || !callNeedsApproval(tool, params))) return RUN;
    const base = {
      step,
      callId: call.call_id,
      toolName: call.name,
      ...(typeof call.namespace === 'string' && call.namespace !== '' ? { namespace: call.namespace } : {}),
      label,
    };
    if (held) {
      const decided = options.decisions?.[call.call_id];
      if (decided === undefined) return { action: 'hold' };
      if (decided.approved) {
        emit({ type: 'approval.decided', ...base, decision: 'approved' });
        return RUN;
      }
      return denied(base, { by: 'person', ...(decided.reason === undefined ? {} : { reason: decided.reason }) }, emit);
    }
    return askPolicy(policy as ApprovalPolicy, base, tool, params, emit);
  };
}

const RUN: CallGateAnswer = Object.freeze({ action: 'run' });

/** What every approval event of one call carries. */
interface ApprovalEventBase {
  step: number;
  callId: string;
  toolName: string;
  namespace?: string;
  label: string;
}

async function askPolicy(
  policy: ApprovalPolicy,
  base: ApprovalEventBase,
  tool: AnyWorkerAgentTool,
  params: unknown,
  emit: (event: AgentEvent) => void,
): Promise<CallGateAnswer> {
  const { step, callId, toolName, namespace, label } = base;
  emit({ type: 'approval.requested', ...base, params, isReadOnly: tool.isReadOnly, isDestructive: tool.isDestructive });
  let decision: ApprovalDecision;
  try {
    decision = await policy({ callId, toolName, ...(namespace === undefined ? {} : { namespace }), tool, params, label, step });
  } catch (thrown) {
    decision = { action: 'deny', by: 'unattended', reason: `the approval policy failed: ${thrown instanceof Error ? thrown.message : String(thrown)}` };
  }
  if (decision.action === 'allow') {
    emit({ type: 'approval.decided', ...base, decision: 'approved' });
    return { action: 'run' };
  }
  if (decision.action === 'deny') return denied(base, decision, emit);
  emit({ type: 'approval.decided', ...base, decision: 'held' });
  return { action: 'hold' };
}

/** `approval.decided` for a denial (with who denied it and why), and the gate's `deny` answer. */
function denied(base: ApprovalEventBase, decision: { reason?: unknown; by?: unknown }, emit: (event: AgentEvent) => void): CallGateAnswer {
  const denial = callDenial(decision);
  emit({ type: 'approval.decided', ...base, decision: 'denied', by: denial.by, ...(denial.reason === undefined ? {} : { reason: denial.reason }) });
  return { action: 'deny', ...denial };
}
