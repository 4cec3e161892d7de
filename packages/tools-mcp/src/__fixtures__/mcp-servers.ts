import { readFileSync } from 'node:fs';
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

/** Whether a process is alive (exists and is not a zombie). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Polls until `check` returns a value (bounded). */
export async function waitFor<T>(check: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('waitFor: timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
