/** Options of `describeTime`. */
export interface DescribeTimeOptions {
  /** The time zone to show the clock time in (an IANA name); default the user's own (`TZ`, else the system's). */
  timeZone?: string | undefined;
  /** "Now", for tests (default the current time). */
  now?: Date;
}

/** `in 3 min`, `2 h ago`, `just now`, `in 4 days`: how far a moment is from now, for people. */
export function relativeTime(when: Date, now: Date = new Date()): string {
  const seconds = Math.round((when.getTime() - now.getTime()) / 1000);
  const size = Math.abs(seconds);
  if (size < 45) return 'just now';
  const [amount, unit] =
    size < 3600 ? [Math.round(size / 60), 'min'] : size < 86_400 ? [Math.round(size / 3600), 'h'] : [Math.round(size / 86_400), Math.round(size / 86_400) === 1 ? 'day' : 'days'];
  return seconds > 0 ? `in ${amount} ${unit}` : `${amount} ${unit} ago`;
}

/**
 * A stored ISO 8601 time for people: the clock time in the user's zone (or the given one, e.g. a cron schedule's own
 * zone), with the zone's short name, then how far from now: `2026-12-01 10:00 CET (in 3 min)`. `--json` keeps ISO 8601.
 */
export function describeTime(iso: string, options: DescribeTimeOptions = {}): string {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return iso;
  const parts = new Intl.DateTimeFormat('en-CA', {
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(when);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((entry) => entry.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} ${part('timeZoneName')} (${relativeTime(when, options.now)})`;
}
