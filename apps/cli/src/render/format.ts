/** `12 ms`, `1.4 s`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/**
 * `1,234`: what `toLocaleString('en-US')` writes, with the digits of a whole number grouped here rather than by
 * ICU, whose first use (loading its locale data) cost about 20 ms of every CLI command that printed a count.
 */
export function formatCount(count: number): string {
  if (!Number.isSafeInteger(count) || Object.is(count, -0)) return count.toLocaleString('en-US');
  const grouped = String(Math.abs(count)).replace(/\B(?=(\d{3})+$)/g, ',');
  return count < 0 ? `-${grouped}` : grouped;
}

/** `1 tool call`, `3 tool calls`. */
export function plural(count: number, noun: string): string {
  return `${formatCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/** A size for people: `512 B`, `1.2 KB`, `3.4 MB` (as the computer tools' labels show sizes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
