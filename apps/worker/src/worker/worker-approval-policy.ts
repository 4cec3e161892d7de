import type { ApprovalPolicy } from '@core/runtime';
import { readApprovalRules } from '../cli/agent-approvals-config.js';
import { listedName } from '../cli/cli-approval-policy.js';

/** What a background turn does with a call that needs approval: run it, deny it, or hold it for a person. */
export type BackgroundApproval = 'allow' | 'deny' | 'hold';

/** An agent's policy for background work (jobs and scheduled turns), from its config. */
export interface WorkerApprovalRules {
  allow: string[];
  deny: string[];
  /** Tools whose calls are held for a person (`ankole approvals`). */
  hold: string[];
  /** Calls needing approval of tools in no list. */
  otherwise: BackgroundApproval;
}

/**
 * The approval policy of an agent's background turns: its `deny` list wins, then `allow`, then `hold`, then
 * `otherwise`. A held call pauses the job (`awaiting_approval`) until a person decides it.
 */
export function workerApprovalPolicy(rules: WorkerApprovalRules): ApprovalPolicy {
  return (request) => {
    const name = listedName(request);
    if (rules.deny.includes(name)) return { action: 'deny', reason: `the agent's config denies the tool "${name}" in background work` };
    if (rules.allow.includes(name)) return { action: 'allow' };
    const choice = rules.hold.includes(name) ? 'hold' : rules.otherwise;
    if (choice === 'allow') return { action: 'allow' };
    if (choice === 'deny') return { action: 'deny', reason: `the agent's config denies calls that need approval in background work` };
    return { action: 'ask' };
  };
}

/**
 * The agent's background policy from `$XDG_CONFIG_HOME/ankole/agents/<agent>.json`:
 * `{ "approvals": { "allow": [...], "deny": [...], "hold": [...], "background": "allow" | "deny" | "hold" } }`.
 * Without a config, every call runs (`background` defaults to `allow`), as before approvals existed.
 * @throws CliError (`agent_config_invalid`) when the file is not valid.
 */
export async function readWorkerApprovalRules(agent: string, env: Readonly<Record<string, string | undefined>>): Promise<WorkerApprovalRules> {
  const rules = await readApprovalRules(agent, env);
  return { allow: rules.allow, deny: rules.deny, hold: rules.hold, otherwise: rules.background };
}
