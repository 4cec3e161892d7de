import type { ApprovalDecisionRecord, HeldCall } from '@core/control-plane-client';
import type { AgentRunState, AnyWorkerAgentTool, ApprovalPolicy } from '@core/runtime';
import { listedName, readApprovalRules } from './agent-approvals-config.js';
import { journalApprovedCalls, type ApprovedCallJournal } from './journal-approved-calls.js';

/** What a background turn does with a call that needs approval: run it, deny it, or hold it for a person. */
export type BackgroundApproval = 'allow' | 'deny' | 'hold';

/** An agent's policy for background work (jobs, scheduled turns and workflow tasks), from its config. */
export interface WorkerApprovalRules {
  allow: string[];
  deny: string[];
  /** Tools whose calls are held for a person (`ankole approvals`). */
  hold: string[];
  /** Calls needing approval of tools in no list (default `hold`). */
  otherwise: BackgroundApproval;
}

/**
 * The approval policy of an agent's background turns: its `deny` list wins, then `allow`, then `hold`, then
 * `otherwise`. A held call pauses the job or task (`awaiting_approval`) until a person decides it (a person's denial,
 * when the turn resumes). Denials by the `deny` list or by `otherwise: 'deny'` are the config's (`by: 'config'`),
 * their reason naming the rule.
 */
export function workerApprovalPolicy(rules: WorkerApprovalRules): ApprovalPolicy {
  return (request) => {
    const name = listedName(request);
    if (rules.deny.includes(name)) return { action: 'deny', by: 'config', reason: `approvals.deny in the agent config lists "${name}"` };
    if (rules.allow.includes(name)) return { action: 'allow' };
    const choice = rules.hold.includes(name) ? 'hold' : rules.otherwise;
    if (choice === 'allow') return { action: 'allow' };
    if (choice === 'deny') return { action: 'deny', by: 'config', reason: 'approvals.background in the agent config is "deny" for background work' };
    return { action: 'ask' };
  };
}

/**
 * The turn's tools with those the rules name in `hold` or `deny` made to need approval for every call, whatever their
 * own `needsApproval` says (a read-only `web_fetch`, a task's `submit_result`): a tool the config lists is always put
 * to the policy (in background work and in `ankole run` alike). The others are returned as they are.
 */
export function requireListedApprovals(tools: readonly AnyWorkerAgentTool[], rules: { deny: readonly string[]; hold?: readonly string[] }): AnyWorkerAgentTool[] {
  const listed = new Set([...(rules.hold ?? []), ...rules.deny]);
  if (listed.size === 0) return [...tools];
  return tools.map((tool) => (listed.has(listedName({ toolName: tool.name, ...(tool.namespace === undefined ? {} : { namespace: tool.namespace }) })) ? { ...tool, needsApproval: true } : tool));
}

/**
 * The agent's background policy from `$XDG_CONFIG_HOME/ankole/agents/<agent>.json`:
 * `{ "approvals": { "allow": [...], "deny": [...], "hold": [...], "background": "allow" | "deny" | "hold" } }`.
 * Without a config (or without `background`), calls that need approval (destructive tools, unless a tool says
 * otherwise) are held for a person: background work has no one at hand to ask, so nothing destructive runs unattended
 * unless the config allows it.
 * @throws UsageError (`agent_config_invalid`) when the file is not valid.
 */
export async function readWorkerApprovalRules(agent: string, env: Readonly<Record<string, string | undefined>>): Promise<WorkerApprovalRules> {
  const rules = await readApprovalRules(agent, env);
  return { allow: rules.allow, deny: rules.deny, hold: rules.hold, otherwise: rules.background };
}

/** What a background turn (a job's or a task's) runs with: the agent's policy, and its tools prepared for it. */
export interface BackgroundTurnApprovals {
  /** The policy, when the worker has rules for the agent (none: every call runs). */
  approvalPolicy?: ApprovalPolicy;
  /** Makes listed tools need approval (`requireListedApprovals`) and journals approved calls (`journalApprovedCalls`). */
  prepareTools: (tools: AnyWorkerAgentTool[]) => AnyWorkerAgentTool[];
}

/**
 * The approvals of one background turn: the agent's `rules` (none: every call runs) and, for a turn resumed after a
 * person decided its held calls, the journal that makes each approval apply exactly once.
 */
export function backgroundTurnApprovals(options: {
  rules: WorkerApprovalRules | undefined;
  decisions: Readonly<Record<string, ApprovalDecisionRecord>> | undefined;
  journal: ApprovedCallJournal;
  onError: (error: unknown) => void;
}): BackgroundTurnApprovals {
  const { rules, decisions } = options;
  return {
    ...(rules === undefined ? {} : { approvalPolicy: workerApprovalPolicy(rules) }),
    prepareTools: (tools) => {
      const listed = rules === undefined ? tools : requireListedApprovals(tools, rules);
      return decisions === undefined ? listed : journalApprovedCalls(listed, { decisions, journal: options.journal, onError: options.onError });
    },
  };
}

/** The held calls of a paused turn's run state, as the control plane stores them (`work.hold`, `tasks.hold`). */
export function heldCalls(runState: AgentRunState): HeldCall[] {
  return runState.pending.map((pending) => ({
    callId: pending.callId,
    toolName: pending.namespace === undefined ? pending.toolName : `${pending.namespace}.${pending.toolName}`,
    label: pending.label,
    params: pending.params,
    isDestructive: pending.isDestructive,
  }));
}
