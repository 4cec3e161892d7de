// Which view draws which address (the part after `#`).
import { approvalsView } from './views/approvals.js';
import { brainPageView, brainView } from './views/brain.js';
import { jobView, jobsView } from './views/jobs.js';
import { schedulesView } from './views/schedules.js';
import { taskView, workflowView, workflowsView } from './views/workflows.js';
import { h } from './dom.js';

/** A page drawing these kinds of records is read again when one of them changes. */
const kinds =
  (...names) =>
  (change) =>
    names.includes(change.kind);

// Each address: its view, the names of its parameters, and which changes it shows (approval changes always count: the
// pending count is on every page).
const ROUTES = [
  [/^\/jobs$/, jobsView, [], kinds('job')],
  [/^\/jobs\/([^/]+)$/, jobView, ['jobId'], (change, { jobId }) => (change.kind === 'job' && change.id === jobId) || (change.kind === 'transcript' && change.jobId === jobId)],
  [/^\/workflows$/, workflowsView, [], kinds('workflow')],
  [/^\/workflows\/([^/]+)$/, workflowView, ['workflowId'], (change, { workflowId }) => (change.kind === 'workflow' && change.id === workflowId) || (change.kind === 'task' && change.workflowId === workflowId)],
  [/^\/workflows\/([^/]+)\/tasks\/([^/]+)$/, taskView, ['workflowId', 'taskId'], (change, { taskId }) => (change.kind === 'task' && change.id === taskId) || (change.kind === 'transcript' && change.taskId === taskId)],
  [/^\/approvals$/, approvalsView, [], kinds()],
  [/^\/schedules$/, schedulesView, [], kinds('schedule')],
  [/^\/brain$/, brainView, [], kinds()],
  [/^\/brain\/(.+)$/, brainPageView, ['page'], kinds()],
];

const notFound = {
  title: () => 'Not found',
  live: false,
  load: async () => null,
  render: () => h('div', {}, h('h1', {}, 'Not found'), h('p', {}, 'No such page. ', h('a', { href: '#/jobs' }, 'Jobs'))),
};

/** The view of `path`, its parameters (decoded), and `shows(change)`: whether the page shows what a change is about. */
export function routeView(path) {
  for (const [pattern, view, names, shows] of ROUTES) {
    const match = pattern.exec(path);
    if (match !== null) {
      const params = Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1])]));
      return { view, params, shows: (change) => change.kind === 'approval' || shows(change, params) };
    }
  }
  return { view: notFound, params: {}, shows: () => false };
}
