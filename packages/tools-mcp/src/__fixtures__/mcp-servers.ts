import { createRequire } from 'node:module';
import path from 'node:path';
import type { ServerDefinition } from 'mcporter';

/** The entry point of the real `@modelcontextprotocol/server-everything` (run with `node <it> stdio`). */
export function serverEverythingEntry(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
}

/** A stdio server definition for mcporter. */
export function stdioServer(name: string, command: string, args: string[], cwd: string, description?: string): ServerDefinition {
  return { name, ...(description === undefined ? {} : { description }), command: { kind: 'stdio', command, args, cwd } };
}

/** server-everything over stdio, writing its pid to `pidFile` first (so a test can check it is gone). */
export function everythingServer(name: string, cwd: string, pidFile: string, description?: string): ServerDefinition {
  return stdioServer(name, 'bash', ['-c', `echo $$ > '${pidFile}'; exec node '${serverEverythingEntry()}' stdio`], cwd, description);
}


