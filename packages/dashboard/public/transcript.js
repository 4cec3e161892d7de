// A stored turn drawn as the terminal draws it (`ankole run`, `ankole jobs transcript`): the model's text, each tool
// call as a line with its label, ✓ / ✗ and duration (arguments and output folded under it, repairs named), approvals
// asked and decided, compactions, and the closing summary line.
import { fold, h, json, pre } from './dom.js';
import { formatCount, formatDuration, plural, describeTime } from './format.js';

const ENDINGS = {
  completed: 'Completed',
  terminated: 'Ended by a tool',
  max_steps: 'Stopped at the step limit',
  aborted: 'Aborted',
  incomplete: 'Stopped: the model response was cut short',
  error: 'Failed',
  awaiting_approval: 'Paused: calls wait for approval',
};
const OK_ENDINGS = ['completed', 'terminated', 'awaiting_approval'];
const CHECK_MARKS = { completed: '✓', in_progress: '▸', pending: '○' };
// Who denied a call (`approval.decided`'s `by`; stored events without one were a person's).
const DENIED_BY = { config: 'Denied by the config', person: 'Denied by a person', unattended: 'Denied (no one could be asked)' };

/** The transcripts of a job or task (`transcripts.get`), one section per attempt; `live` while it may still grow. */
export function drawTranscript(record, { what, live, key }) {
  if (record === null || record.attempts.length === 0) {
    return h('p', { class: 'muted' }, live ? 'No transcript yet: waiting for a worker to start the turn…' : `No transcript for ${what}: no worker ran its turn since transcripts are kept.`);
  }
  return h(
    'div',
    { class: 'transcript' },
    record.attempts.map((attempt, index) => {
      const last = index === record.attempts.length - 1;
      const heading = [`Attempt ${attempt.attempt}`, attempt.workerId ? `worker ${attempt.workerId}` : undefined, `started ${describeTime(attempt.startedAt)}`].filter(Boolean).join(' · ');
      return h('section', { class: 'attempt', 'aria-label': `Attempt ${attempt.attempt}` }, h('h3', {}, heading), drawAttempt(attempt, { live: live && last, key: `${key}-${attempt.attempt}` }));
    }),
  );
}

function drawAttempt(attempt, { live, key }) {
  const lines = [];
  const calls = new Map();
  const texts = new Map();
  let completed;
  let toolCalls = 0;
  const denials = [];
  const textLine = (itemId, text) => {
    const existing = texts.get(itemId);
    if (existing !== undefined) {
      existing.textContent = text;
      return;
    }
    const line = h('p', { class: 'message' }, text);
    texts.set(itemId, line);
    lines.push(line);
  };
  const deltas = new Map();
  for (const { event } of attempt.entries) {
    switch (event.type) {
      case 'text.delta': {
        const itemId = event.itemId ?? `step-${event.step}`;
        deltas.set(itemId, (deltas.get(itemId) ?? '') + event.delta);
        textLine(itemId, deltas.get(itemId));
        break;
      }
      case 'message.completed':
        textLine(event.itemId ?? `step-${event.step}`, event.text);
        break;
      case 'activity.started': {
        const line = h('div', { class: 'call running', role: 'group', 'aria-label': `Tool call ${event.label}` });
        calls.set(event.callId, { line, started: event });
        line.append(h('div', { class: 'call-line' }, h('span', { class: 'mark', 'aria-hidden': 'true' }, '…'), ' ', h('span', { class: 'label' }, event.label), h('span', { class: 'muted' }, ` ${toolName(event)}`)));
        if (event.arguments !== undefined) line.append(fold(`${key}-${event.callId}-args`, 'Arguments', pre(json(event.arguments))));
        lines.push(line);
        break;
      }
      case 'activity.completed': {
        toolCalls += 1;
        if (event.denial !== undefined) denials.push(Object.hasOwn(DENIED_BY, event.denial.by) ? event.denial.by : 'person');
        let entry = calls.get(event.callId);
        if (entry === undefined) {
          entry = { line: h('div', { class: 'call', role: 'group' }) };
          lines.push(entry.line);
        }
        drawCompleted(entry, event, key);
        break;
      }
      case 'approval.requested':
        lines.push(
          h(
            'div',
            { class: 'approval-line' },
            h('span', {}, `? Approval needed: ${event.label}`),
            h('span', { class: 'muted' }, ` ${toolName(event)}${event.isDestructive ? ' · destructive' : ''}`),
            fold(`${key}-${event.callId}-params`, 'Arguments', pre(json(event.params))),
          ),
        );
        break;
      case 'approval.decided': {
        const how = event.decision === 'approved' ? '✓ Approved' : event.decision === 'denied' ? `✗ ${Object.hasOwn(DENIED_BY, event.by) ? DENIED_BY[event.by] : DENIED_BY.person}` : '⏸ Held for a person';
        lines.push(h('div', { class: `approval-line decided-${event.decision}` }, `${how}: ${event.label}${event.reason ? ` (${event.reason})` : ''}`));
        break;
      }
      case 'presentation':
        lines.push(drawPresentation(event.event));
        break;
      case 'context.compacted':
        lines.push(h('div', { class: 'muted' }, `↻ Compacted context: ${formatCount(event.tokensBefore)} → ${formatCount(event.tokensAfter)} tokens of ${formatCount(event.window)}`));
        break;
      case 'tool_search.completed':
        lines.push(h('div', {}, `⌕ Tool search "${event.query}": ${event.toolNames.join(', ') || 'nothing found'}`));
        break;
      case 'turn.completed':
        completed = event;
        break;
      default:
        break;
    }
  }
  if (attempt.droppedEvents > 0) lines.push(h('div', { class: 'warning' }, `! ${plural(attempt.droppedEvents, 'event')} left out of this transcript: it reached its size bound.`));
  if (attempt.truncatedEvents > 0) lines.push(h('div', { class: 'warning' }, `! ${plural(attempt.truncatedEvents, 'event')} kept with long text cut.`));
  if (completed !== undefined) lines.push(summaryLine(completed, attempt, toolCalls, denials));
  else lines.push(h('p', { class: 'muted' }, live ? h('span', { class: 'spinner' }, 'Running…') : '(The transcript ends here: the turn did not finish.)'));
  return h('div', { class: 'turn' }, lines);
}

function drawCompleted(entry, event, key) {
  const ok = event.status === 'success';
  const label = event.label;
  const duration = /\d (ms|s)\)$/.test(label) ? '' : ` (${formatDuration(event.durationMs)})`;
  const head = h(
    'div',
    { class: 'call-line' },
    h('span', { class: `mark ${ok ? 'ok' : 'bad'}`, 'aria-label': ok ? 'succeeded' : 'failed' }, ok ? '✓' : '✗'),
    ' ',
    h('span', { class: 'label' }, label),
    h('span', { class: 'muted' }, duration),
    ok ? null : h('span', { class: 'bad' }, event.denial === undefined ? ` ${event.status}${event.error === undefined ? '' : `: ${event.error.split('\n')[0]}`}` : ` ${describeDenial(event.denial)}`),
    event.repairs.length === 0 ? null : h('span', { class: 'muted repairs' }, ` · repaired arguments: ${event.repairs.map((repair) => repair.kind).join(', ')}`),
    h('span', { class: 'muted' }, ` ${toolName(event)}`),
  );
  entry.line.className = `call ${ok ? 'done' : 'failed'}`;
  entry.line.setAttribute('aria-label', `Tool call ${label}`);
  const args = entry.started?.arguments;
  const parts = [head];
  if (args !== undefined) parts.push(fold(`${key}-${event.callId}-args`, 'Arguments', pre(json(args))));
  if (event.output !== undefined) parts.push(fold(`${key}-${event.callId}-output`, 'Output', pre(event.output)));
  entry.line.replaceChildren(...parts);
}

function drawPresentation(event) {
  if (event.kind === 'checklist' && Array.isArray(event.items)) {
    const done = event.items.filter((item) => item?.status === 'completed').length;
    return h(
      'div',
      { class: 'checklist' },
      h('strong', {}, typeof event.title === 'string' ? event.title : 'Checklist'),
      h('span', { class: 'muted' }, ` (${done}/${event.items.length} done)`),
      h('ul', {}, event.items.map((item) => h('li', { class: `check-${item?.status}` }, `${CHECK_MARKS[item?.status] ?? '•'} ${item?.content ?? ''}`))),
    );
  }
  if (event.kind === 'links' && Array.isArray(event.links)) {
    return h('ul', { class: 'links' }, event.links.slice(0, 8).map((link) => h('li', {}, `↗ ${link?.title ?? ''} ${link?.url ?? ''}`)));
  }
  if (event.kind === 'file' && typeof event.path === 'string') return h('div', {}, `▤ ${event.action ?? 'changed'} ${event.path}`);
  const { kind, ...rest } = event;
  return h('div', { class: 'muted' }, `[${kind}] ${JSON.stringify(rest).slice(0, 200)}`);
}

/** Who denied a call and why, as the terminal says it: `denied by the config: approvals.deny … lists "command"`. */
function describeDenial(denial) {
  const by = Object.hasOwn(DENIED_BY, denial.by) ? denial.by : 'person';
  const words = DENIED_BY[by].replace(/^D/, 'd');
  return denial.reason ? `${words}: ${denial.reason}` : words;
}

/** The summary's words for denied calls, as the terminal says them: `1 call denied by the config`, `3 calls denied (2 by the config, 1 by a person)`. */
function deniedCalls(denials) {
  if (denials.length === 0) return undefined;
  const words = { config: ['by the config', 'by the config'], person: ['by a person', 'by people'], unattended: ['with no one to ask', 'with no one to ask'] };
  const counts = Object.keys(words).map((by) => [by, denials.filter((each) => each === by).length]).filter(([, count]) => count > 0);
  const head = `${plural(denials.length, 'call')} denied`;
  if (counts.length === 1) return `${head} ${words[counts[0][0]][denials.length === 1 ? 0 : 1]}`;
  return `${head} (${counts.map(([by, count]) => `${formatCount(count)} ${words[by][count === 1 ? 0 : 1]}`).join(', ')})`;
}

function summaryLine(completed, attempt, toolCalls, denials) {
  const first = Date.parse(attempt.entries[0]?.time ?? '');
  const last = Date.parse(attempt.entries.at(-1)?.time ?? '');
  const usage = completed.usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  const ok = OK_ENDINGS.includes(completed.reason);
  const parts = [
    plural(completed.steps ?? 0, 'step'),
    plural(toolCalls, 'tool call'),
    deniedCalls(denials),
    `${formatCount(usage.totalTokens)} tokens (${formatCount(usage.inputTokens)} in, ${formatCount(usage.outputTokens)} out)`,
    formatDuration(Number.isFinite(first) && Number.isFinite(last) ? Math.max(0, last - first) : 0),
  ];
  return h(
    'p',
    { class: 'summary' },
    '── ',
    h('strong', { class: ok ? 'ok' : 'bad' }, ENDINGS[completed.reason] ?? completed.reason),
    ` · ${parts.filter((part) => part !== undefined).join(' · ')}`,
    completed.error ? h('span', { class: 'bad' }, ` · ${completed.error}`) : null,
  );
}

function toolName(event) {
  return event.namespace ? `${event.namespace}.${event.toolName}` : event.toolName;
}
