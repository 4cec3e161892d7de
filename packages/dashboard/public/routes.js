// Which view draws which address (the part after `#`).
import { approvalsView } from './views/approvals.js';
import { brainPageView, brainView } from './views/brain.js';
import { jobView, jobsView } from './views/jobs.js';
import { schedulesView } from './views/schedules.js';
import { taskView, workflowView, workflowsView } from './views/workflows.js';
import { h } from './dom.js';

const ROUTES = [
  [/^\/jobs$/, jobsView, []],
  [/^\/jobs\/([^/]+)$/, jobView, ['jobId']],
  [/^\/workflows$/, workflowsView, []],
  [/^\/workflows\/([^/]+)$/, workflowView, ['workflowId']],
  [/^\/workflows\/([^/]+)\/tasks\/([^/]+)$/, taskView, ['workflowId', 'taskId']],
  [/^\/approvals$/, approvalsView, []],
  [/^\/schedules$/, schedulesView, []],
  [/^\/brain$/, brainView, []],
  [/^\/brain\/(.+)$/, brainPageView, ['page']],
];

const notFound = {
  title: () => 'Not found',
  live: false,
  load: async () => null,
  render: () => h('div', {}, h('h1', {}, 'Not found'), h('p', {}, 'No such page. ', h('a', { href: '#/jobs' }, 'Jobs'))),
};

/** The view of `path` and its parameters (decoded). */
export function routeView(path) {
  for (const [pattern, view, names] of ROUTES) {
    const match = pattern.exec(path);
    if (match !== null) return { view, params: Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1])])) };
  }
  return { view: notFound, params: {} };
}
