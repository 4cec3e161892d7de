import { fold, h, json, pre, statusBadge } from '../dom.js';
import { describeTime, relativeTime, shortId, span } from '../format.js';
import { drawTranscript } from '../transcript.js';
import { actionButton, facts, orNotFound } from './common.js';

const SETTLED = ['succeeded', 'failed', 'cancelled'];

/** Workflows: a live list. */
export const workflowsView = {
  title: () => 'Workflows',
  load: (ctx) => ctx.rpc('workflows.list', { agentId: ctx.agentId, limit: 200 }),
  render(workflows, ctx) {
    return h(
      'div',
      {},
      h('h1', {}, 'Workflows ', h('span', { class: 'muted' }, `of agent ${ctx.agentId}`)),
      workflows.length === 0
        ? h('p', { class: 'muted' }, 'No workflows.')
        : h(
            'table',
            { class: 'list', 'aria-label': 'Workflows' },
            h('thead', {}, h('tr', {}, ['Status', 'Title', 'Tasks', 'Age', 'Duration'].map((name) => h('th', { scope: 'col' }, name)))),
            h(
              'tbody',
              {},
              workflows.map((workflow) =>
                h(
                  'tr',
                  { 'data-workflow': workflow.id },
                  h('td', {}, statusBadge(workflow.status)),
                  h('td', {}, h('a', { href: `#/workflows/${encodeURIComponent(workflow.id)}` }, workflow.title || shortId(workflow.id))),
                  h('td', {}, String(workflow.taskCount)),
                  h('td', {}, relativeTime(new Date(workflow.createdAt))),
                  h('td', {}, span(workflow.createdAt, workflow.finishedAt)),
                ),
              ),
            ),
          ),
    );
  },
};

/** One workflow: its task tree (status, duration, result or error of each), its log and result; cancel. */
export const workflowView = {
  title: (workflow) => (workflow ? `Workflow ${workflow.title}` : 'Workflow'),
  load: (ctx) => orNotFound(ctx.rpc('workflows.get', { agentId: ctx.agentId, workflowId: ctx.params.workflowId })),
  render(workflow, ctx) {
    if (workflow === null) return h('div', {}, h('h1', {}, 'Workflow not found'), h('p', { role: 'alert' }, `Agent ${ctx.agentId} has no workflow ${ctx.params.workflowId}.`), h('a', { href: '#/workflows' }, '← Workflows'));
    const settled = SETTLED.includes(workflow.status);
    return h(
      'article',
      { class: 'workflow' },
      h('p', {}, h('a', { href: '#/workflows' }, '← Workflows')),
      h('h1', {}, workflow.title || shortId(workflow.id), ' ', statusBadge(workflow.status)),
      settled ? null : actionButton('Cancel workflow', async () => (await ctx.rpc('workflows.cancel', { agentId: ctx.agentId, workflowId: workflow.id }), 'Workflow cancelled.'), ctx, { id: 'cancel-workflow', class: 'danger' }),
      facts([
        ['Id', workflow.id],
        ['Agent', workflow.agentId],
        ['Created', describeTime(workflow.createdAt)],
        ['Ran', span(workflow.createdAt, workflow.finishedAt)],
        ['Replays', String(workflow.replays)],
      ]),
      fold(`${workflow.id}-input`, 'Input', pre(json(workflow.input))),
      h('h2', {}, 'Tasks'),
      workflow.tasks.length === 0
        ? h('p', { class: 'muted' }, 'No tasks yet.')
        : h(
            'ol',
            { class: 'tree', 'aria-label': 'Tasks' },
            workflow.tasks.map((task) =>
              h(
                'li',
                { 'data-task': task.id, 'data-status': task.status },
                h(
                  'div',
                  { class: 'task-line' },
                  statusBadge(task.status),
                  ' ',
                  h('a', { href: `#/workflows/${encodeURIComponent(workflow.id)}/tasks/${encodeURIComponent(task.id)}` }, `${task.sequence + 1}. ${task.title}`),
                  h('span', { class: 'muted' }, ` ${task.startedAt === null ? (task.status === 'queued' ? 'waiting' : '') : span(task.startedAt, task.finishedAt)}${task.attempts > 1 ? `, ${task.attempts} attempts` : ''}`),
                ),
                task.error === null ? null : pre(task.error, 'error'),
                task.result === null ? null : fold(`${task.id}-result`, `Result: ${preview(JSON.stringify(task.result))}`, pre(json(task.result), 'result')),
              ),
            ),
          ),
      workflow.error === null ? null : [h('h2', {}, 'Error'), pre(workflow.error, 'error')],
      workflow.result === null ? null : [h('h2', {}, 'Result'), pre(json(workflow.result), 'result')],
      h('h2', {}, 'Log'),
      workflow.log.length === 0 ? h('p', { class: 'muted' }, 'Nothing logged.') : h('ol', { class: 'log' }, workflow.log.map((line) => h('li', {}, h('time', { datetime: line.at }, line.at.slice(11, 19)), ' ', line.text))),
      fold(`${workflow.id}-script`, 'Script', pre(workflow.script)),
    );
  },
};

/** One task of a workflow: its prompt, result, and transcript (live while it runs). */
export const taskView = {
  title: (data) => (data?.task ? `Task ${data.task.title}` : 'Task'),
  async load(ctx) {
    const workflow = await orNotFound(ctx.rpc('workflows.get', { agentId: ctx.agentId, workflowId: ctx.params.workflowId }));
    const task = workflow?.tasks.find((entry) => entry.id === ctx.params.taskId) ?? null;
    if (task === null) return { task: null };
    const transcript = await orNotFound(ctx.rpc('transcripts.get', { agentId: ctx.agentId, taskId: task.id }));
    return { workflow: { id: workflow.id, title: workflow.title }, task, transcript };
  },
  render({ workflow, task, transcript }, ctx) {
    if (task === null) return h('div', {}, h('h1', {}, 'Task not found'), h('p', { role: 'alert' }, `Agent ${ctx.agentId} has no such task.`), h('a', { href: '#/workflows' }, '← Workflows'));
    return h(
      'article',
      {},
      h('p', {}, h('a', { href: `#/workflows/${encodeURIComponent(workflow.id)}` }, `← ${workflow.title}`)),
      h('h1', {}, `${task.sequence + 1}. ${task.title} `, statusBadge(task.status)),
      facts([
        ['Id', task.id],
        ['Ran', span(task.startedAt, task.finishedAt)],
        ['Worker', task.workerId],
        ['Attempts', String(task.attempts)],
      ]),
      h('h2', {}, 'Prompt'),
      pre(task.prompt, 'prompt'),
      task.result === null ? null : [h('h2', {}, 'Result'), pre(json(task.result), 'result')],
      task.error === null ? null : [h('h2', {}, 'Error'), pre(task.error, 'error')],
      h('h2', {}, 'Transcript'),
      drawTranscript(transcript, { what: `task ${shortId(task.id)}`, live: !SETTLED.includes(task.status), key: task.id }),
    );
  },
};

/** A one-line preview of a result (as `ankole workflows show` draws the tree): at most 120 characters. */
function preview(text) {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
}
