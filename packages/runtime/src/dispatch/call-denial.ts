/**
 * Who denied a call that needed approval:
 * - `config`: a rule of the agent's configuration (an approval list, a "deny everything in background work" setting);
 * - `person`: a person asked about the call said no (at a terminal prompt, `ankole approvals deny`, the dashboard);
 * - `unattended`: the call needed a person's approval and no one could be asked (no terminal, `--approve never`, no
 *   answer came, or the approval check itself failed).
 */
export type DenialSource = 'config' | 'person' | 'unattended';

/** The denial sources, in the order summaries name them. */
export const DENIAL_SOURCES: readonly DenialSource[] = ['config', 'person', 'unattended'];

/** A denied call: who denied it (`by`) and why (`reason`, as the policy or the person gave it). */
export interface CallDenial {
  by: DenialSource;
  reason?: string;
}

/**
 * The denial a gate's or policy's `deny` answer stands for: its `reason` (left out when empty) and its `by`, which
 * defaults to `person` (policies written before `by` existed meant a person) and is `person` too for a value that is
 * not a denial source.
 */
export function callDenial(answer: { reason?: unknown; by?: unknown }): CallDenial {
  const by = DENIAL_SOURCES.includes(answer.by as DenialSource) ? (answer.by as DenialSource) : 'person';
  const reason = typeof answer.reason === 'string' && answer.reason.trim() !== '' ? answer.reason.trim() : undefined;
  return reason === undefined ? { by } : { by, reason };
}

/**
 * The error text a denied call's output carries, worded for who denied it (default `person`, as before `by`
 * existed), and each saying what the model should do instead of repeating the call:
 * - `person`: `not run: a person declined to approve this call of "NAME". Reason: …`;
 * - `config`: `not run: the agent's configuration does not allow this call of "NAME" (rule: …).`;
 * - `unattended`: `not run: this call of "NAME" needs a person's approval and no one could be asked (…).`
 */
export function declinedMessage(calledName: string, reason: string | undefined, by: DenialSource = 'person'): string {
  const given = reason === undefined || reason.trim() === '' ? undefined : reason.trim();
  if (by === 'config') {
    return `not run: the agent's configuration does not allow this call of "${calledName}" (rule: ${given ?? 'not named'}). Do not repeat the call; do the task another way, or tell the user the configuration denies this tool.`;
  }
  if (by === 'unattended') {
    return `not run: this call of "${calledName}" needs a person's approval and no one could be asked (${given ?? 'no reason was given'}). Do not repeat the call; do the task without it, or tell the user it needs their approval.`;
  }
  const why = given === undefined ? 'No reason was given.' : `Reason: ${given}`;
  return `not run: a person declined to approve this call of "${calledName}". ${why} Do not repeat the same call; adapt to the reason or ask the user.`;
}
