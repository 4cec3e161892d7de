/**
 * About how many tokens `value` takes in a request: the characters of its JSON divided by 4, rounded up (the usual
 * ratio for English and code; a response's `usage.input_tokens` corrects it once the model has answered). The length
 * is summed over the value's parts rather than serialised, so a large tool output costs nothing to count (escapes
 * such as `\n` are counted as one character).
 */
export function estimateTokens(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'string') return Math.ceil(value.length / 4);
  return Math.ceil(jsonLength(value, 0) / 4);
}

/** About the length of `JSON.stringify(value)`, without building it. */
function jsonLength(value: unknown, depth: number): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value).length;
  if (value === null || typeof value !== 'object') return 4;
  // Deeper than any request item: counted as it serialises.
  if (depth > 64) return JSON.stringify(value)?.length ?? 0;
  let length = 2;
  if (Array.isArray(value)) {
    for (const element of value) length += jsonLength(element, depth + 1) + 1;
    return length;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const field = (value as Record<string, unknown>)[key];
    if (field === undefined || typeof field === 'function') continue;
    length += key.length + 4 + jsonLength(field, depth + 1);
  }
  return length;
}
