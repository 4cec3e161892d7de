import { readdirSync, readFileSync } from 'node:fs';
import { createCommandSandbox, type CommandSandbox, type CommandSandboxOptions } from '../sandbox/command-sandbox.js';

/**
 * A command sandbox for a test file and whether it works here. Where it does not (no bubblewrap, user namespaces
 * off), the file's sandbox tests skip, and one line says why.
 */
export async function testSandbox(file: string, options: CommandSandboxOptions = {}): Promise<{ sandbox: CommandSandbox; available: boolean }> {
  const sandbox = createCommandSandbox(options);
  const status = await sandbox.status();
  if (!status.available) console.warn(`${file}: sandbox tests skipped: ${status.reason}`);
  return { sandbox, available: status.available };
}

/**
 * Why commands cannot run sandboxed here (no bubblewrap, not Linux), said once for `file`; `undefined` when they can.
 * Tests of other things that run commands through the default sandbox skip where it is missing.
 */
export function sandboxMissing(file: string): string | undefined {
  const reason = createCommandSandbox().quickCheck();
  if (reason !== undefined) console.warn(`${file}: tests that run commands skipped: ${reason}`);
  return reason;
}

/** The computer-tools context for a test of something else that runs a command: sandboxed, or (said once) unsandboxed where bubblewrap is missing. */
export function sandboxOrOptOut(file: string): { sandbox?: 'unsandboxed' } {
  const reason = createCommandSandbox().quickCheck();
  if (reason === undefined) return {};
  console.warn(`${file}: commands run unsandboxed in these tests: ${reason}`);
  return { sandbox: 'unsandboxed' };
}

/** Pids of the live processes whose command line holds `token` (zombies excluded). */
export function processesWith(token: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (/^\S+ \(.*\) Z/.test(stat)) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(token)) found.push(Number(entry));
    } catch {
      // gone
    }
  }
  return found;
}
