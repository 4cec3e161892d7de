/** Host names that are never fetched, whatever they resolve to (cloud metadata services, localhost). */
const BLOCKED_HOST_NAMES = new Set(['localhost', 'metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'metadata.azure.internal']);
const BLOCKED_HOST_SUFFIXES = ['.localhost', '.internal', '.local'];

/** Lower-cases a URL host name and drops IPv6 brackets and a trailing dot. */
export function normaliseHostName(hostname: string): string {
  return hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
}

/** Why a host name is refused before any DNS lookup (localhost, metadata names, `.internal`), or undefined. */
export function blockedHostNameReason(hostname: string): string | undefined {
  const name = normaliseHostName(hostname);
  if (BLOCKED_HOST_NAMES.has(name)) return `"${name}" is a local or cloud metadata host name`;
  const suffix = BLOCKED_HOST_SUFFIXES.find((candidate) => name.endsWith(candidate));
  if (suffix !== undefined) return `"${name}" is in the local-only domain ${suffix}`;
  return undefined;
}
