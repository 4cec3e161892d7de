/**
 * About how many tokens `value` takes in a request: the characters of its JSON divided by 4, rounded up (the usual
 * ratio for English and code; a response's `usage.input_tokens` corrects it once the model has answered).
 */
export function estimateTokens(value: unknown): number {
  if (value === undefined || value === null) return 0;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return Math.ceil(text.length / 4);
}
