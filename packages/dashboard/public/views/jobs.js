import { h, pre, statusBadge } from '../dom.js';
import { describeTime, relativeTime, shortId, span } from '../format.js';
import { drawTranscript } from '../transcript.js';
import { actionButton, facts, orNotFound } from './common.js';

const STATUSES = ['queued', 'running', 'awaiting_approval', 'succeeded', 'failed', 'cancelled'];
const SETTLED = ['succeeded', 'failed', 'cancelled'];

/** Jobs: a live list with filters (status, words of the title) kept in the address. */
export const jobsView = {
  title: () => 'Jobs',
  async load(ctx) {
    const status = ctx.query.get('status');
    return ctx.rpc('jobs.list', { agentId: ctx.agentId, limit: 200, ...(status ? { status: [status] } : {}) });
  },
  render(jobs, ctx) {
    const status = ctx.query.get('status') ?? '';
    const words = (ctx.query.get('q') ?? '').toLowerCase();
    const shown = words === '' ? jobs : jobs.filter((job) => job.title.toLowerCase().includes(words) || job.id.startsWith(words));
    const filters = h(
      'form',
      {
        class: 'filters',
        role: 'search',
        onsubmit: (event) => {
          event.preventDefault();
          const form = new FormData(event.target);
          const query = new URLSearchParams();
          for (const [name, value] of form) if (value !== '') query.set(name, value);
          location.hash = `#/jobs${query.size > 0 ? `?${query}` : ''}`;
        },
      },
      h('label', { for: 'job-status' }, 'Status'),
      h('select', { id: 'job-status', name: 'status', onchange: (event) => event.target.form.requestSubmit() }, h('option', { value: '' }, 'any'), STATUSES.map((name) => h('option', { value: name, selected: name === status }, name.replace('_', ' ')))),
      h('label', { for: 'job-words' }, 'Title'),
      h('input', { id: 'job-words', name: 'q', type: 'search', value: ctx.query.get('q') ?? '' }),
      h('button', { type: 'submit' }, 'Filter'),
    );
    return h(
      'div',
      {},
      h('h1', {}, 'Jobs ', h('span', { class: 'muted' }, `of agent ${ctx.agentId}`)),
      filters,
      shown.length === 0
        ? h('p', { class: 'muted' }, 'No jobs.')
        : h(
            'table',
            { class: 'list', 'aria-label': 'Jobs' },
            h('thead', {}, h('tr', {}, ['Status', 'Title', 'Agent', 'Age', 'Duration', 'Worker'].map((name) => h('th', { scope: 'col' }, name)))),
            h(
              'tbody',
              {},
              shown.map((job) =>
                h(
                  'tr',
                  { 'data-job': job.id, 'data-status': job.status },
                  h('td', {}, statusBadge(job.status)),
                  h('td', {}, h('a', { href: `#/jobs/${encodeURIComponent(job.id)}` }, job.title || shortId(job.id))),
                  h('td', {}, job.agentId),
                  h('td', {}, relativeTime(new Date(job.createdAt))),
                  h('td', {}, span(job.startedAt, job.finishedAt)),
                  h('td', {}, job.workerId ?? ''),
                ),
              ),
            ),
          ),
    );
  },
};

/** One job: its prompt, answer or error, transcript (live while it runs), and cancel. */
export const jobView = {
  title: (data) => (data?.job ? `Job ${data.job.title}` : 'Job'),
  async load(ctx, previous) {
    const job = await orNotFound(ctx.rpc('jobs.get', { agentId: ctx.agentId, jobId: ctx.params.jobId }));
    if (job === null) return { job: null };
    // The transcript is read again only while it may change.
    const same = previous?.job?.id === job.id && previous.job.updatedAt === job.updatedAt && SETTLED.includes(job.status);
    const transcript = same ? previous.transcript : await orNotFound(ctx.rpc('transcripts.get', { agentId: ctx.agentId, jobId: job.id }));
    return { job, transcript };
  },
  render({ job, transcript }, ctx) {
    if (job === null) return h('div', {}, h('h1', {}, 'Job not found'), h('p', { role: 'alert' }, `Agent ${ctx.agentId} has no job ${ctx.params.jobId}.`), h('a', { href: '#/jobs' }, '← Jobs'));
    const settled = SETTLED.includes(job.status);
    return h(
      'article',
      { class: 'job' },
      h('p', {}, h('a', { href: '#/jobs' }, '← Jobs')),
      h('h1', {}, job.title || shortId(job.id), ' ', statusBadge(job.status)),
      settled ? null : actionButton('Cancel job', async () => (await ctx.rpc('jobs.cancel', { agentId: ctx.agentId, jobId: job.id }), 'Job cancelled.'), ctx, { id: 'cancel-job', class: 'danger' }),
      facts([
        ['Id', job.id],
        ['Agent', job.agentId],
        ['Kind', job.kind],
        ['Created', describeTime(job.createdAt)],
        ['Ran', span(job.startedAt, job.finishedAt)],
        ['Worker', job.workerId],
        ['Attempts', String(job.attempts)],
      ]),
      h('h2', {}, 'Prompt'),
      pre(job.prompt, 'prompt'),
      job.finalAnswer === null ? null : [h('h2', {}, 'Answer'), pre(job.finalAnswer, 'answer')],
      job.error === null ? null : [h('h2', {}, 'Error'), pre(job.error, 'error')],
      job.status === 'awaiting_approval' ? h('p', {}, 'Calls of this job wait for a person: ', h('a', { href: '#/approvals' }, 'decide them in Approvals'), '.') : null,
      h('h2', {}, 'Transcript'),
      drawTranscript(transcript, { what: `job ${shortId(job.id)}`, live: !settled, key: job.id }),
    );
  },
};

