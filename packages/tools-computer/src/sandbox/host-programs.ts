import { spawn } from 'node:child_process';
import { accessSync, constants as fsConstants, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Tasks (threads) of this uid now (what RLIMIT_NPROC counts), from /proc; 0 when unknown. Only read where the
 * process limit falls back to RLIMIT_NPROC (no writable cgroup, not root).
 */
export function userTasks(): number {
  const uid = process.getuid?.();
  if (uid === undefined) return 0;
  let tasks = 0;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (statSync(`/proc/${entry}`).uid !== uid) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // num_threads: the 18th field after "pid (comm)".
      tasks += Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[17]) || 1;
    } catch {
      // gone
    }
  }
  return tasks;
}

export function safeUserName(): string {
  try {
    const name = os.userInfo().username;
    return /^[a-z_][a-z0-9_-]*$/i.test(name) ? name : 'agent';
  } catch {
    return 'agent';
  }
}

export function findProgram(program: string): string | undefined {
  const folders = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/bin', '/bin', '/usr/local/bin'];
  for (const folder of folders) {
    if (folder === '') continue;
    const candidate = path.join(folder, program);
    try {
      accessSync(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export function runQuiet(file: string, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return outcomeOf(child);
}

/** What a process printed and how it ended. */
export function outcomeOf(child: { stdout: Readable | null; stderr: Readable | null; on(event: 'error', listener: (error: Error) => void): unknown; on(event: 'close', listener: (code: number | null) => void): unknown }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => resolve({ code: null, stdout, stderr: error.message }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
