/** Names the Responses API accepts for functions and namespaces. */
const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Turns an MCP server or tool name into one the Responses API accepts (`^[a-zA-Z0-9_-]{1,64}$`):
 * every other character becomes `_`, the result is cut to 64 characters, and an empty name becomes
 * `fallback`. Names that already match are unchanged.
 */
export function sanitizeName(name: string, fallback = 'mcp'): string {
  if (NAME_PATTERN.test(name)) return name;
  const cleaned = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
  return cleaned === '' || /^_+$/.test(cleaned) ? fallback : cleaned;
}

/**
 * A name not in `taken`: `name` itself, else `name_2`, `name_3`, … (cut so it stays within 64 characters).
 * Adds the result to `taken`.
 */
export function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let index = 2; taken.has(candidate); index += 1) {
    const suffix = `_${index}`;
    candidate = `${name.slice(0, 64 - suffix.length)}${suffix}`;
  }
  taken.add(candidate);
  return candidate;
}
