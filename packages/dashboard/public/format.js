// Times, durations and counts for people, written as the `ankole` CLI writes them.

/** `in 3 min`, `2 h ago`, `just now`, `in 4 days`. */
export function relativeTime(when, now = new Date()) {
  const seconds = Math.round((when.getTime() - now.getTime()) / 1000);
  const size = Math.abs(seconds);
  if (size < 45) return 'just now';
  const [amount, unit] =
    size < 3600 ? [Math.round(size / 60), 'min'] : size < 86_400 ? [Math.round(size / 3600), 'h'] : [Math.round(size / 86_400), Math.round(size / 86_400) === 1 ? 'day' : 'days'];
  return seconds > 0 ? `in ${amount} ${unit}` : `${amount} ${unit} ago`;
}

/** `2026-12-01 10:00 CET (in 3 min)`: the clock time in the browser's zone (or `timeZone`), then how far from now. */
export function describeTime(iso, timeZone) {
  if (iso === null || iso === undefined) return '';
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return iso;
  const parts = new Intl.DateTimeFormat('en-CA', {
    ...(timeZone ? { timeZone } : {}),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(when);
  const part = (type) => parts.find((entry) => entry.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${part('timeZoneName')} (${relativeTime(when)})`;
}

/** `12 ms`, `1.4 s`, `2 min 5 s`. */
export function formatDuration(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** How long something ran: from `start` to `end` (or now, while it runs); empty before it started. */
export function span(start, end) {
  if (start === null || start === undefined) return '';
  const took = formatDuration(Math.max(0, Date.parse(end ?? new Date().toISOString()) - Date.parse(start)));
  return end === null || end === undefined ? `for ${took}` : took;
}

/** `1,234`. */
export function formatCount(count) {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** `1 tool call`, `3 tool calls`. */
export function plural(count, noun) {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/** A short id for people: its first 8 characters. */
export function shortId(id) {
  return id.slice(0, 8);
}
