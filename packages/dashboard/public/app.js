// The dashboard: sign-in, the section router (#/jobs, #/jobs/<id>, #/workflows/<id>, …) and live updates. A page's
// data (and the approvals count) is loaded again when the control plane's change stream (`changes.js`) says the
// agent's jobs, workflows, approvals, schedules or transcripts changed (at most once a second), and every FALLBACK_MS
// in case a change was missed (POLL_MS while the stream is down); pages that do not change by themselves
// (`live: false`) load once. A page is redrawn only when its data changed, keeping what the person opened, typed and
// focused; nothing is loaded while the tab is hidden.
import { ApiError, currentSession, rpc, signIn, signOut } from './api.js';
import { watchChanges } from './changes.js';
import { h } from './dom.js';
import { routeView } from './routes.js';

const FALLBACK_MS = 15000;
const POLL_MS = 3000;
const MIN_GAP_MS = 1000;
const main = document.getElementById('main');
const top = document.getElementById('top');
const agentInput = document.getElementById('agent');
const badge = document.getElementById('approval-count');
const announce = document.getElementById('announce');

const state = { session: null, agentId: '', generation: 0, shown: undefined, timer: undefined, changes: undefined, live: false, lastLoad: 0, soon: undefined };

/** The page's context for views: the agent, the route's parameters, and navigation. */
function context(route) {
  return {
    agentId: state.agentId,
    params: route.params,
    query: route.query,
    rpc,
    refresh: () => tick(true),
    say: (message) => {
      announce.textContent = message;
    },
  };
}

function parseRoute() {
  const [path, search = ''] = location.hash.replace(/^#/, '').split('?');
  return { path: path === '' ? '/jobs' : path, query: new URLSearchParams(search) };
}

async function start() {
  state.session = await currentSession().catch(() => null);
  if (state.session === null) return showSignIn();
  top.hidden = false;
  const agent = state.session.kind === 'agent';
  state.agentId = agent ? state.session.agentId : (localStorage.getItem('ankole.agent') ?? 'default');
  agentInput.value = state.agentId;
  if (!agent) showAgentsSeen();
  agentInput.readOnly = agent;
  agentInput.title = agent ? 'This token is for this agent only' : 'The agent whose work is shown (a worker token sees every agent)';
  document.getElementById('who').textContent = agent ? `agent token` : 'worker token';
  watchAgent();
  await tick(true);
}

/** Follows the shown agent's changes (again after the agent was switched). */
function watchAgent() {
  state.changes?.stop();
  setLive(false);
  state.changes = watchChanges({
    agentId: state.agentId,
    // Only changes of what the page shows (and approvals: the count is on every page) read it again.
    onChange: (change) => {
      if (routeView(parseRoute().path).shows(change)) refreshSoon();
    },
    // (Re)connected, or changes may have been missed: what is shown may be out of date.
    onReady: () => refreshSoon(),
    onState: setLive,
    onUnauthorized: () => {
      stopWatching();
      showSignIn('Your session ended: sign in again.');
    },
  });
}

function stopWatching() {
  state.changes?.stop();
  state.changes = undefined;
  clearTimeout(state.soon);
  state.soon = undefined;
  setLive(false);
}

function setLive(live) {
  state.live = live;
  document.body.dataset.live = live ? 'stream' : 'poll';
}

/** Loads the page again because something changed: now, or MIN_GAP_MS after the last load (changes come in bursts). */
function refreshSoon() {
  if (state.soon !== undefined || document.hidden) return;
  state.soon = setTimeout(() => {
    state.soon = undefined;
    tick();
  }, Math.max(0, state.lastLoad + MIN_GAP_MS - Date.now()));
}

function showSignIn(message) {
  stopWatching();
  top.hidden = true;
  clearTimeout(state.timer);
  state.shown = undefined;
  const error = h('p', { class: 'error', id: 'sign-in-error', role: 'alert' }, message ?? '');
  const input = h('input', { id: 'token', name: 'token', type: 'password', autocomplete: 'off', required: true, 'aria-describedby': 'token-help sign-in-error', spellcheck: 'false' });
  const form = h(
    'form',
    {
      class: 'sign-in',
      onsubmit: async (event) => {
        event.preventDefault();
        error.textContent = '';
        try {
          await signIn(input.value);
          input.value = '';
          await start();
        } catch (failure) {
          error.textContent = failure instanceof ApiError ? failure.message : 'The control plane did not answer.';
          input.focus();
        }
      },
    },
    h('h1', {}, 'Sign in to Ankole'),
    h('label', { for: 'token' }, 'Token'),
    input,
    h('p', { id: 'token-help', class: 'muted' }, 'A worker token (sees every agent) or an agent token, from `ankole tokens create`. The browser keeps it in an HttpOnly cookie for this site only.'),
    h('button', { type: 'submit' }, 'Sign in'),
    error,
  );
  main.replaceChildren(form);
  input.focus();
}

/**
 * Loads the current route's data and draws it when it changed (or `force`); then loads again after FALLBACK_MS (POLL_MS
 * while the change stream is down) unless a change comes first.
 */
async function tick(force = false) {
  clearTimeout(state.timer);
  const generation = ++state.generation;
  state.lastLoad = Date.now();
  const route = parseRoute();
  const { view, params } = routeView(route.path);
  route.params = params;
  const ctx = context(route);
  highlightSection(route.path);
  const key = `${location.hash}|${state.agentId}`;
  try {
    // A page that does not change by itself (Brain) is loaded once; the approvals count stays live on every page.
    const again = !force && view.live === false && state.shown?.key === key;
    const [data] = await Promise.all([again ? state.shown.data : view.load(ctx, force ? undefined : state.shown?.data), updateBadge()]);
    if (generation !== state.generation) return;
    const serialized = JSON.stringify(data);
    if (force || state.shown?.key !== key || state.shown.serialized !== serialized) {
      const first = state.shown?.key !== key;
      redraw(view.render(data, ctx), first);
      document.title = `${view.title(data, ctx)} · Ankole`;
      state.shown = { key, serialized, data };
    }
  } catch (failure) {
    if (generation !== state.generation) return;
    if (failure instanceof ApiError && failure.status === 401) return showSignIn('Your session ended: sign in again.');
    state.shown = undefined;
    main.replaceChildren(h('h1', {}, view.title(undefined, ctx)), h('p', { class: 'error', role: 'alert' }, failure instanceof ApiError ? failure.message : String(failure)));
  }
  if (generation === state.generation && !document.hidden) state.timer = setTimeout(() => tick(), state.live ? FALLBACK_MS : POLL_MS);
}

/** Replaces the page, keeping folds open, typed text and focus (by element id or data-key). */
function redraw(node, first) {
  const open = new Set([...main.querySelectorAll('details[open][data-key]')].map((element) => element.dataset.key));
  const values = new Map([...main.querySelectorAll('input[id], textarea[id], select[id]')].map((element) => [element.id, element.value]));
  const focused = document.activeElement?.id || document.activeElement?.dataset?.key;
  main.replaceChildren(node);
  for (const element of main.querySelectorAll('details[data-key]')) if (open.has(element.dataset.key)) element.open = true;
  if (!first) for (const [id, value] of values) {
    const element = document.getElementById(id);
    if (element !== null && element.type !== 'hidden') element.value = value;
  }
  const again = focused ? (document.getElementById(focused) ?? main.querySelector(`[data-key="${CSS.escape(focused)}"]`)) : null;
  if (!first && again !== null) again.focus();
  else if (first) main.focus({ preventScroll: true });
}

async function updateBadge() {
  const pending = await rpc('approvals.list', { agentId: state.agentId, status: ['pending'], limit: 500 });
  badge.hidden = pending.length === 0;
  badge.textContent = String(pending.length);
  badge.setAttribute('aria-label', `${pending.length} pending`);
}

/** The agents this browser looked at (a worker token's choices), newest first. */
function agentsSeen() {
  try {
    const seen = JSON.parse(localStorage.getItem('ankole.agents') ?? '[]');
    return Array.isArray(seen) ? seen.filter((agent) => typeof agent === 'string') : [];
  } catch {
    return [];
  }
}

function showAgentsSeen() {
  document.getElementById('agents-seen').replaceChildren(...agentsSeen().map((agent) => h('option', { value: agent })));
}

function highlightSection(path) {
  const section = path.split('/')[1];
  for (const link of top.querySelectorAll('nav a')) {
    if (link.dataset.section === section) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

window.addEventListener('hashchange', () => {
  if (state.session !== null) tick(true);
});
document.addEventListener('visibilitychange', () => {
  if (!document.hidden && state.session !== null) tick();
});
document.getElementById('agent-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const value = agentInput.value.trim();
  if (value === '' || state.session?.kind === 'agent') return;
  state.agentId = value;
  localStorage.setItem('ankole.agent', value);
  const seen = [value, ...agentsSeen().filter((agent) => agent !== value)].slice(0, 20);
  localStorage.setItem('ankole.agents', JSON.stringify(seen));
  showAgentsSeen();
  watchAgent();
  tick(true);
});
agentInput.addEventListener('change', () => document.getElementById('agent-form').requestSubmit());
document.getElementById('sign-out').addEventListener('click', async () => {
  await signOut().catch(() => undefined);
  state.session = null;
  showSignIn('Signed out.');
});

start();
