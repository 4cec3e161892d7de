import type { ApprovalRecord } from '@core/control-plane-client';
import { describeTime } from '../../render/relative-time.js';
import type { CliCommand } from '../cli-command.js';
import { CliError, EXIT_CODES } from '../cli-error.js';
import { alreadyFinished } from '../already-finished.js';
import { resolveIdPrefix } from '../id-prefix.js';
import { parseCommandLine, positiveInteger, stringValue, stringValues } from '../parse-command-line.js';
import { agentOption, CONTROL_PLANE_OPTIONS, CONTROL_PLANE_OPTIONS_HELP, formatTable, openFromOptions } from '../../control-plane/control-plane-options.js';

const OPTIONS = {
  ...CONTROL_PLANE_OPTIONS,
  agent: { type: 'string' },
  status: { type: 'string', multiple: true },
  limit: { type: 'string' },
  reason: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const STATUSES: ReadonlyArray<ApprovalRecord['status']> = ['pending', 'approved', 'denied', 'cancelled'];

const HELP = [
  'Usage: ankole approvals [list]               list the calls background jobs and workflow tasks hold for approval (pending ones)',
  '       ankole approvals show <id>            one held call: its job or task, tool, label and arguments',
  '       ankole approvals approve <id>         run the call: once the last held call of its job or task is decided, a worker resumes it',
  '       ankole approvals deny <id> [--reason TEXT]   decline it; the model sees the reason and goes on',
  '',
  'A job or workflow task pauses (awaiting_approval) when its turn makes a call that needs approval (a destructive',
  'tool\'s) or calls a tool the agent\'s config holds; the config can allow or deny instead',
  '($XDG_CONFIG_HOME/ankole/agents/<agent>.json: { "approvals": { "allow": ["command"], "hold": [...], "deny": [...],',
  '"background": "hold" | "allow" | "deny" } }; default: hold).',
  '',
  'Options:',
  '  --agent NAME       the agent (default: "default")',
  '  --status S         list approvals with this status (pending, approved, denied, cancelled; repeatable)',
  '  --limit N          most approvals to list (default 50)',
  '  --reason TEXT      why a call is denied (the model sees it)',
  '  --json             print JSON',
  ...CONTROL_PLANE_OPTIONS_HELP,
  '  -h, --help         show this help',
  '',
].join('\n');

/** `ankole approvals`: list, show, approve or deny the calls paused background jobs hold. */
export const approvalsCommand: CliCommand = {
  name: 'approvals',
  summary: 'list, show, approve or deny calls that background jobs and workflow tasks hold for approval',
  async run(args, io) {
    const { values, positionals } = parseCommandLine('approvals', args, OPTIONS);
    if (values.help === true) {
      io.stdout.write(HELP);
      return EXIT_CODES.ok;
    }
    const [action = 'list', ...rest] = positionals;
    if (!['list', 'show', 'approve', 'deny'].includes(action)) {
      throw new CliError('action_unknown', `Unknown action "${action}" for \`ankole approvals\`: use list, show, approve or deny (see \`ankole approvals --help\`).`);
    }
    const agentId = agentOption(values);
    const statuses = stringValues(values, 'status').flatMap((text) => text.split(',')).map((text) => text.trim());
    const badStatus = statuses.find((status) => !STATUSES.includes(status as ApprovalRecord['status']));
    if (badStatus !== undefined) throw new CliError('option_invalid', `--status "${badStatus}" is not an approval status: use ${STATUSES.join(', ')}.`);
    const limit = positiveInteger(values, 'limit', 'approvals');
    if (action !== 'list' && rest.length !== 1) throw new CliError('arguments_invalid', `Give one approval id: ankole approvals ${action} <id>.`);
    const reason = stringValue(values, 'reason');
    if (reason !== undefined && action !== 'deny') throw new CliError('option_invalid', '--reason goes with deny: ankole approvals deny <id> --reason "…".');

    const { controlPlane } = await openFromOptions(values, io, false);
    try {
      const { client } = controlPlane;
      const json = values.json === true;
      if (action === 'list') {
        const approvals = await client.approvals.list({
          agentId,
          ...(statuses.length > 0 ? { status: statuses as Array<ApprovalRecord['status']> } : {}),
          ...(limit === undefined ? {} : { limit }),
        });
        if (json) io.stdout.write(`${JSON.stringify(approvals)}\n`);
        else if (approvals.length === 0) io.stdout.write(`No ${statuses.length === 0 ? 'pending ' : ''}approvals for agent ${agentId}.\n`);
        else {
          io.stdout.write(
            `${formatTable(
              ['ID', 'STATUS', 'TOOL', 'CALL', 'JOB OR TASK'],
              approvals.map((approval) => [approval.id, approval.status, approval.toolName, approval.label, `${ownerOf(approval)} "${approval.jobTitle}"`]),
            )}\n`,
          );
        }
        return EXIT_CODES.ok;
      }
      const approvalId = await resolveIdPrefix({
        given: rest[0]!,
        kind: 'approval',
        agentId,
        candidates: async () => (await client.approvals.list({ agentId, status: [...STATUSES], limit: 500 })).map((approval) => approval.id),
      });
      const current = await client.approvals.get({ agentId, approvalId });
      if (action !== 'show' && current.status !== 'pending') throw alreadyFinished({ kind: 'Approval', id: current.id, status: current.status, action: action as 'approve' | 'deny' });
      const approval =
        action === 'show'
          ? current
          : await client.approvals.decide({ agentId, approvalId, approved: action === 'approve', ...(reason === undefined ? {} : { reason }) });
      io.stdout.write(json ? `${JSON.stringify(approval)}\n` : `${describeApproval(approval, action)}\n`);
      return EXIT_CODES.ok;
    } finally {
      await controlPlane.close();
    }
  },
};

/** `job <id>` or `task <id>`: what the held call belongs to. */
function ownerOf(approval: ApprovalRecord): string {
  return approval.jobId !== null ? `job ${approval.jobId}` : `task ${approval.taskId ?? '?'}`;
}

function describeApproval(approval: ApprovalRecord, action: string): string {
  const owner = ownerOf(approval);
  const lead =
    action === 'approve'
      ? `Approved ${approval.id}: the call runs when a worker resumes ${owner}.`
      : action === 'deny'
        ? `Denied ${approval.id}: the model is told${approval.reason === null ? '' : ` why (${approval.reason})`} and ${owner} goes on.`
        : `Approval ${approval.id}`;
  const lines = [
    lead,
    `  status:    ${approval.status}${approval.decidedAt === null ? '' : ` (${describeTime(approval.decidedAt)})`}`,
    `  tool:      ${approval.toolName}${approval.isDestructive ? ' (destructive)' : ''}`,
    `  call:      ${approval.label}`,
    approval.jobId !== null ? `  job:       ${approval.jobId} "${approval.jobTitle}"` : `  task:      ${approval.taskId ?? '?'} "${approval.jobTitle}" (workflow ${approval.workflowId ?? '?'})`,
    `  held:      ${describeTime(approval.createdAt)}`,
  ];
  if (action === 'show') lines.push(`  arguments: ${JSON.stringify(approval.params)}`);
  if (approval.reason !== null && action === 'show') lines.push(`  reason:    ${approval.reason}`);
  return lines.join('\n');
}
