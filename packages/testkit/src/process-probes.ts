import { readFileSync } from 'node:fs';

/**
 * Whether a process is alive: it exists and is not a zombie waiting to be reaped (Linux `/proc`). Tests use
 * it to prove that a killed process group, a stopped MCP server or an aborted command left nothing behind.
 * Never throws.
 */
export function isProcessAlive(pid: number): boolean {
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

/**
 * Polls `check` every 20 ms until it returns a value other than `undefined`, and resolves with it.
 * @throws Error when `timeoutMs` (default 10 s) passes first.
 */
export async function waitFor<T>(check: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waitFor: nothing after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
