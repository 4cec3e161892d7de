import type { ApprovalDecision, ApprovalPolicy, ApprovalRequest } from '@core/runtime';
import { listedName, type ApprovalRules } from '@core/worker';

/** How `ankole run` decides calls that need approval: ask the person, allow them all, or deny them all. */
export type ApproveMode = 'ask' | 'auto' | 'never';

/** The values `--approve` takes. */
export const APPROVE_MODES: readonly ApproveMode[] = ['ask', 'auto', 'never'];

/** Options of `createCliApprovalPolicy`. */
export interface CliApprovalPolicyOptions {
  mode: ApproveMode;
  rules: ApprovalRules;
  /** Writes the question (to the terminal). */
  write: (text: string) => void;
  /** Reads the person's answer; `undefined` when input ended or the turn was aborted. Needed for `ask`. */
  readLine?: (signal?: AbortSignal) => Promise<string | undefined>;
  /**
   * Whether the mode was chosen (`--approve`, `ANKOLE_APPROVE`) rather than the default (`never` for want of a
   * terminal): it says why no one could be asked. Default true.
   */
  modeChosen?: boolean;
  signal?: AbortSignal;
}

/**
 * The approval policy of a terminal turn. The agent config's `deny` list wins (a denial `by: 'config'`), then its
 * `allow` list; then the mode: `auto` allows, `never` denies (`by: 'unattended'`: no one is asked, and the reason says
 * why), `ask` asks the person, one call at a time: allow once (`y`), allow this tool for the rest of the turn (`a`), or
 * deny (`n`, then an optional reason the model sees: `by: 'person'`). Input that ends before an answer is `unattended`.
 */
export function createCliApprovalPolicy(options: CliApprovalPolicyOptions): ApprovalPolicy {
  const allowedForTurn = new Set<string>();
  let queue: Promise<unknown> = Promise.resolve();
  return (request) => {
    const name = listedName(request);
    if (options.rules.deny.includes(name)) return { action: 'deny', by: 'config', reason: `approvals.deny in the agent config lists "${name}"` };
    if (options.rules.allow.includes(name) || allowedForTurn.has(name)) return { action: 'allow' };
    if (options.mode === 'auto') return { action: 'allow' };
    const readLine = options.readLine;
    if (options.mode === 'never' || readLine === undefined) {
      const chosenNever = options.mode === 'never' && options.modeChosen !== false;
      return { action: 'deny', by: 'unattended', reason: chosenNever ? 'ankole run runs with --approve never' : 'ankole run has no terminal to ask on' };
    }
    // One question at a time, even when parallel calls ask together.
    const answer = queue.then(() => ask(request, name, readLine));
    queue = answer.catch(() => undefined);
    return answer;
  };

  async function ask(request: ApprovalRequest, name: string, readLine: NonNullable<CliApprovalPolicyOptions['readLine']>): Promise<ApprovalDecision> {
    if (allowedForTurn.has(name)) return { action: 'allow' };
    const args = JSON.stringify(request.params) ?? '';
    options.write(`? Approval needed: ${request.label} (${name}${request.tool.isDestructive ? ', destructive' : ''})\n  arguments: ${args.length > 400 ? `${args.slice(0, 399)}…` : args}\n`);
    while (true) {
      options.write(`  Allow? [y] once · [a] allow ${name} for the rest of this turn · [n] deny: `);
      const line = await readLine(options.signal);
      if (line === undefined) return { action: 'deny', by: 'unattended', reason: 'no answer came: input ended or the turn was stopped' };
      const choice = line.trim().toLowerCase();
      if (choice === 'y' || choice === 'yes') return { action: 'allow' };
      if (choice === 'a' || choice === 'always') {
        allowedForTurn.add(name);
        return { action: 'allow' };
      }
      if (choice === 'n' || choice === 'no') {
        options.write('  Reason (optional, the model sees it): ');
        const reason = (await readLine(options.signal))?.trim() ?? '';
        return reason === '' ? { action: 'deny', by: 'person' } : { action: 'deny', by: 'person', reason };
      }
    }
  }
}
