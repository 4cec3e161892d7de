import { createRequire } from 'node:module';
import path from 'node:path';

/** The entry point of the real `@modelcontextprotocol/server-everything` (run with `node <it> stdio`). */
export function serverEverythingEntry(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
}
