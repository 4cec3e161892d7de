/** `1 model call`, `2 model calls`: the count and the noun, plural unless the count is 1 (`plural` for irregular nouns). */
export function countOf(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}
