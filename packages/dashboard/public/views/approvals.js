import { h, json, pre, statusBadge } from '../dom.js';
import { describeTime } from '../format.js';
import { actionButton } from './common.js';

/** Approvals: the calls held for a person (tool, label, arguments), approved or denied with a reason; then the latest decisions. */
export const approvalsView = {
  title: (data) => `Approvals${data?.pending.length ? ` (${data.pending.length})` : ''}`,
  async load(ctx) {
    const [pending, decided] = await Promise.all([
      ctx.rpc('approvals.list', { agentId: ctx.agentId, status: ['pending'], limit: 500 }),
      ctx.rpc('approvals.list', { agentId: ctx.agentId, status: ['approved', 'denied', 'cancelled'], limit: 20 }),
    ]);
    return { pending, decided };
  },
  render({ pending, decided }, ctx) {
    return h(
      'div',
      {},
      h('h1', {}, 'Approvals ', h('span', { class: 'muted' }, `of agent ${ctx.agentId}`)),
      pending.length === 0 ? h('p', { class: 'muted' }, 'No calls wait for approval.') : h('ul', { class: 'cards', 'aria-label': 'Pending approvals' }, pending.map((approval) => pendingCard(approval, ctx))),
      decided.length === 0
        ? null
        : [
            h('h2', {}, 'Decided lately'),
            h('ul', { class: 'decided' }, decided.map((approval) => h('li', {}, statusBadge(approval.status), ` ${approval.label} `, h('span', { class: 'muted' }, `${approval.toolName} · ${approval.jobTitle}${approval.reason ? ` · “${approval.reason}”` : ''} · ${describeTime(approval.decidedAt)}`)))),
          ],
    );
  },
};

function pendingCard(approval, ctx) {
  const reasonId = `reason-${approval.id}`;
  const decide = (approved) => async () => {
    const reason = document.getElementById(reasonId)?.value.trim();
    await ctx.rpc('approvals.decide', { agentId: ctx.agentId, approvalId: approval.id, approved, ...(reason ? { reason } : {}) });
    return approved ? `Approved ${approval.label}.` : `Denied ${approval.label}.`;
  };
  const owner = approval.jobId !== null ? h('a', { href: `#/jobs/${encodeURIComponent(approval.jobId)}` }, approval.jobTitle) : h('a', { href: `#/workflows/${encodeURIComponent(approval.workflowId)}` }, approval.jobTitle);
  return h(
    'li',
    { class: 'card', 'data-approval': approval.id, 'aria-label': `Approval for ${approval.label}` },
    h('h2', {}, approval.label),
    h('p', {}, h('code', {}, approval.toolName), approval.isDestructive ? h('span', { class: 'bad' }, ' · destructive') : null, ' · ', owner, h('span', { class: 'muted' }, ` · ${describeTime(approval.createdAt)}`)),
    h('h3', {}, 'Arguments'),
    pre(json(approval.params)),
    h('label', { for: reasonId }, 'Reason (optional; the model sees it when denied)'),
    h('input', { id: reasonId, type: 'text', maxlength: '2000' }),
    h('div', { class: 'buttons' }, actionButton('Approve', decide(true), ctx, { class: 'primary', 'data-key': `approve-${approval.id}` }), actionButton('Deny', decide(false), ctx, { class: 'danger', 'data-key': `deny-${approval.id}` })),
  );
}
