import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { CappedOutput } from './capped-output.js';

/** What `runCommand` needs. */
export interface RunCommandOptions {
  /** The shell command line, run with `bash -c`. */
  command: string;
  cwd: string;
  /** The whole environment of the command (nothing else is inherited). */
  env: Record<string, string>;
  timeoutMs: number;
  /** Time between SIGTERM and SIGKILL when the process group is killed. */
  killGraceMs: number;
  /** Bytes kept of stdout and of stderr (each). */
  maxOutputBytes: number;
  signal?: AbortSignal;
  /** The shell (default `bash`). */
  shell?: string;
}

/** How a command went. */
export interface CommandRun {
  /** The exit code, or `null` when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended the shell, if any. */
  exitSignal: string | null;
  stdout: CappedOutput;
  stderr: CappedOutput;
  durationMs: number;
  timedOut: boolean;
  aborted: boolean;
  /** The shell's pid (also its process group id). */
  pid: number | undefined;
}

/**
 * Runs a command line in a new process group (`bash -c`, detached) and waits until it ends and its
 * whole process group is gone. When the shell exits, any process it left in its group is killed; on
 * timeout or abort the group gets SIGTERM, then SIGKILL after the grace period. Output is capped.
 * @throws Error only when the shell cannot be started at all (e.g. `bash` missing); never on a failing command.
 */
export function runCommand(options: RunCommandOptions): Promise<CommandRun> {
  const started = performance.now();
  const stdout = new CappedOutput(options.maxOutputBytes);
  const stderr = new CappedOutput(options.maxOutputBytes);
  return new Promise<CommandRun>((resolve, reject) => {
    if (options.signal?.aborted) {
      resolve({ exitCode: null, exitSignal: null, stdout, stderr, durationMs: 0, timedOut: false, aborted: true, pid: undefined });
      return;
    }
    const child = spawn(options.shell ?? 'bash', ['-c', options.command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pid = child.pid;
    let timedOut = false;
    let aborted = false;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let killTimer: NodeJS.Timeout | undefined;
    let settled = false;

    const signalGroup = (signal: NodeJS.Signals): boolean => {
      if (pid === undefined) return false;
      try {
        process.kill(-pid, signal);
        return true;
      } catch {
        return false;
      }
    };
    const killGroup = (): void => {
      if (signalGroup('SIGTERM') && killTimer === undefined) {
        killTimer = setTimeout(() => signalGroup('SIGKILL'), options.killGraceMs);
      }
    };
    const timeoutTimer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      killGroup();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      // The shell is gone; whatever it left behind in its group goes too.
      killGroup();
    });
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      if (killTimer !== undefined) clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      options.signal?.removeEventListener('abort', onAbort);
      void waitForGroupGone(pid, options.killGraceMs + 1_000).then(() => {
        if (killTimer !== undefined) clearTimeout(killTimer);
        resolve({ exitCode, exitSignal, stdout, stderr, durationMs: performance.now() - started, timedOut, aborted, pid });
      });
    });
  });
}

/** Waits (polling, bounded) until no live process is left in the group; SIGKILLs it when the bound passes. */
async function waitForGroupGone(pgid: number | undefined, boundMs: number): Promise<void> {
  if (pgid === undefined) return;
  const deadline = Date.now() + boundMs;
  while (groupExists(pgid)) {
    if (Date.now() > deadline) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        return;
      }
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Whether a live (not zombie) process is left in the group. `kill(-pgid, 0)` alone is not enough:
 * orphans reparented to an init that does not reap stay as zombies, which count as dead here.
 */
function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const state = processState(entry);
    if (state !== undefined && state.pgid === pgid && state.state !== 'Z' && state.state !== 'X') return true;
  }
  return false;
}

function processState(pid: string): { state: string; pgid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', pgid: Number(fields[2]) };
  } catch {
    return undefined;
  }
}
