/**
 * A schema built at its first use, then kept: module-level Zod schemas cost milliseconds to build when a program
 * starts, and most runs never search the web or fetch a page.
 */
export function lazySchema<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}
