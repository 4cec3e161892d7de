// ISO 8601 dates and date-times: `2025-01-15`, `2025-01-15T23:30:00`, `2025-01-15 23:30:00.123456+09:00`, `…Z`.
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
// A time zone named in a free-form date (`GMT`, `UTC`, `+0200`, `PST`), which Date.parse honours.
const NAMED_ZONE = /(?:\b(?:GMT|UTC|UT|Z)\b|[+-]\d{2}:?\d{2}\b|\b[A-Z][SD]T\b)/;

/**
 * A provider's date as the model should read it: `YYYY-MM-DD` (the UTC calendar date) when the value
 * is a timestamp, otherwise the provider's text (`3 days ago`, `July 25, 2024`); undefined for empty values.
 * A time without an offset (Brave's `page_age` `2025-01-15T23:30:00`) is read as UTC, never as the
 * process's local time, so the date does not depend on the worker's time zone.
 */
export function normaliseDate(value: string | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  const iso = ISO_DATE_TIME.exec(trimmed);
  if (iso !== null) return isoDate(iso) ?? trimmed;
  if (/\b\d{4}\b.*\d{1,2}:\d{2}/.test(trimmed)) {
    // Free-form date with a time (`Wed, 15 Jan 2025 23:30:00 GMT`): without a zone, read it as UTC.
    const time = Date.parse(NAMED_ZONE.test(trimmed) ? trimmed : `${trimmed} UTC`);
    if (!Number.isNaN(time)) return new Date(time).toISOString().slice(0, 10);
  }
  return trimmed;
}

function isoDate(match: RegExpExecArray): string | undefined {
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  const milliseconds = fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000);
  const wall = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour ?? 0), Number(minute ?? 0), Number(second ?? 0), milliseconds);
  const fields = new Date(wall);
  // An impossible date (2025-02-30, 25:00) is not a timestamp: Date.UTC would roll it over silently.
  if (Number.isNaN(wall) || fields.getUTCMonth() !== Number(month) - 1 || fields.getUTCDate() !== Number(day) || fields.getUTCHours() !== Number(hour ?? 0)) return undefined;
  let offsetMinutes = 0;
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0'));
  }
  return new Date(wall - offsetMinutes * 60_000).toISOString().slice(0, 10);
}
