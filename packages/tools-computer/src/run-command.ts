import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { CappedOutput } from './capped-output.js';
import { COMMAND_MARKER_VARIABLE, liveCommandProcesses, processStartTicks, signalCommandProcesses } from './command-processes.js';
import type { SandboxedCall } from './sandbox/command-sandbox.js';

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
  /**
   * The call placed in the OS sandbox: it is spawned instead of the shell (the shell runs inside it). Everything
   * the command starts lives in the sandbox's PID namespace and dies with it: on timeout or abort the command's
   * processes get SIGTERM and, after the grace period, the sandbox is killed (SIGKILL), which kills every one of
   * them, whatever they did (`setsid`, double fork, `env -i`).
   */
  sandboxed?: SandboxedCall;
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

/** How long the output pipes may stay open once every process of the command is gone (held by a process that shed the marker). */
const PIPE_CLOSE_WAIT_MS = 2_000;

/**
 * Runs a command line in a new process group (`bash -c`, detached) and waits until it ends and every
 * process it started is gone. Each process it starts carries `ANKOLE_COMMAND_ID=<unique id>` in its
 * environment, so processes that left the group (`setsid`, daemons) are found too (through `/proc`).
 * When the shell exits, whatever it left running is killed; on timeout or abort everything gets
 * SIGTERM, then SIGKILL after the grace period. Output is capped.
 * @throws Error only when the shell cannot be started at all (e.g. `bash` missing); never on a failing command.
 */
export async function runCommand(options: RunCommandOptions): Promise<CommandRun> {
  const started = performance.now();
  const stdout = new CappedOutput(options.maxOutputBytes);
  const stderr = new CappedOutput(options.maxOutputBytes);
  if (options.signal?.aborted) {
    return { exitCode: null, exitSignal: null, stdout, stderr, durationMs: 0, timedOut: false, aborted: true, pid: undefined };
  }
  const commandId = randomUUID();
  const env = { ...options.env, [COMMAND_MARKER_VARIABLE]: commandId };
  const { sandboxed } = options;
  // In the sandbox: its launcher, waiting in the call's cgroup, becomes bubblewrap (whose stdout and stderr are the command's).
  const child =
    sandboxed === undefined
      ? (spawn(options.shell ?? 'bash', ['-c', options.command], { cwd: options.cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }) as ChildProcessByStdio<null, Readable, Readable>)
      : await sandboxed.launch(env);
  return new Promise<CommandRun>((resolve, reject) => {
    const pid = child.pid;
    // Read before the event loop can reap the shell: processes started earlier cannot carry the marker.
    const startedTicks = pid === undefined ? 0 : processStartTicks(pid);
    const live = (): number[] => (pid === undefined ? [] : liveCommandProcesses(pid, commandId, startedTicks));
    let timedOut = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    let settled = false;
    let closed = false;
    const pipesClosed = new Promise<void>((done) =>
      child.on('close', () => {
        closed = true;
        done();
      }),
    );

    const killAll = (): void => {
      if (pid === undefined || killTimer !== undefined) return;
      if (sandboxed !== undefined) {
        // The command's processes (not bubblewrap, whose death would kill them at once) get SIGTERM; after the
        // grace period bubblewrap gets SIGKILL, and its PID namespace goes with it.
        signalCommandProcesses(undefined, live().filter((process) => process !== pid), 'SIGTERM');
        killTimer = setTimeout(() => signalCommandProcesses(pid, [], 'SIGKILL'), options.killGraceMs);
        return;
      }
      signalCommandProcesses(pid, live(), 'SIGTERM');
      killTimer = setTimeout(() => signalCommandProcesses(pid, live(), 'SIGKILL'), options.killGraceMs);
    };
    const timeoutTimer = setTimeout(() => {
      timedOut = true;
      killAll();
    }, options.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      killAll();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const stopWatching = (): void => {
      clearTimeout(timeoutTimer);
      options.signal?.removeEventListener('abort', onAbort);
    };

    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      stopWatching();
      if (killTimer !== undefined) clearTimeout(killTimer);
      reject(error);
    });
    child.on('exit', (exitCode, exitSignal) => {
      if (settled) return;
      settled = true;
      stopWatching();
      // The shell is gone; whatever it left running goes too, before the call returns. In the sandbox the kernel
      // has done it already: bubblewrap exits when the command does, and its PID namespace dies with it.
      void (sandboxed === undefined ? stopLeftovers(pid, live, options.killGraceMs) : Promise.resolve())
        .then(async () => {
          if (killTimer !== undefined) clearTimeout(killTimer);
          if (!closed) await Promise.race([pipesClosed, delay(PIPE_CLOSE_WAIT_MS)]);
          if (!closed) {
            // A process that shed the marker still holds the output: stop reading it.
            child.stdout.destroy();
            child.stderr.destroy();
          }
        })
        .then(() => resolve({ exitCode, exitSignal, stdout, stderr, durationMs: performance.now() - started, timedOut, aborted, pid }));
    });
  });
}

/** Kills what a command left running (SIGTERM, SIGKILL after the grace period) and waits until it is gone (bounded). */
async function stopLeftovers(pgid: number | undefined, liveProcesses: () => number[], graceMs: number): Promise<void> {
  if (pgid === undefined) return;
  let live = liveProcesses();
  if (live.length === 0) return;
  signalCommandProcesses(pgid, live, 'SIGTERM');
  for (const [signal, waitMs] of [['SIGKILL', graceMs], [undefined, 1_000]] as const) {
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      await delay(10);
      live = liveProcesses();
      if (live.length === 0) return;
    }
    if (signal !== undefined) signalCommandProcesses(pgid, live, signal);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
