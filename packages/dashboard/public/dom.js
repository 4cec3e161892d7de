// Building the page: elements from tags, attributes and children. Text always goes in as text nodes, never as HTML.

/** `h('a', { href: '#/jobs', class: 'x', onclick: fn }, 'Jobs', child)`. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** A folded block (`<details>`) whose open state survives a redraw: `key` names it. */
export function fold(key, summary, ...content) {
  return h('details', { 'data-key': key }, h('summary', {}, summary), ...content);
}

/** Preformatted text (prompts, answers, outputs). */
export function pre(text, className) {
  return h('pre', { class: className }, text);
}

/** Pretty JSON of a value (for arguments, results). */
export function json(value) {
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2) ?? 'null';
}

/** The status as a labelled mark: `✓ succeeded`. */
export function statusBadge(status) {
  return h('span', { class: `status status-${status}` }, `${MARKS[status] ?? '·'} ${status.replace('_', ' ')}`);
}

const MARKS = { queued: '·', running: '▶', succeeded: '✓', failed: '✗', cancelled: '■', awaiting_approval: '⏸', pending: '⏸', approved: '✓', denied: '✗', active: '▶', completed: '✓' };
