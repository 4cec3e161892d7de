import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import type { CallCgroup } from './call-cgroups.js';

/** A launcher process: started (and placed in its cgroup) ahead of the call that will use it. */
export interface Launcher {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** Its cgroup, when the sandbox has cgroups. */
  cgroup: CallCgroup | undefined;
  /** Settles once it is in its cgroup (rejects when it cannot be placed there). */
  placed: Promise<void>;
  /** Whether it is still waiting for its call. */
  waiting(): boolean;
}

/** What a launcher is told when its call comes. */
export interface LauncherOrders {
  cpuSeconds: number;
  /** In the launcher's `ulimit -f` blocks (1 024 bytes, bash). */
  fileBlocks: number;
  /** RLIMIT_NPROC, or `undefined` to leave it. */
  processLimit: number | undefined;
  /** bubblewrap's options (passed with `--args`: environment included, `--clearenv` then `--setenv`). */
  bwrapOptions: readonly string[];
  /** The command bubblewrap runs inside (after `--`). */
  command: readonly string[];
  /** The seccomp program, given to bubblewrap on descriptor 3. */
  seccomp: Buffer | undefined;
}

/**
 * The launcher, run by bash outside the sandbox: it waits for its orders on descriptor 4 (NUL-separated: CPU
 * seconds, file size blocks, process limit or `-`, the command's word count, the words), sets the limits (inherited
 * by everything the command starts), makes itself the OOM killer's first choice, and `exec`s bubblewrap, which reads
 * its options from descriptor 5 and the seccomp program from descriptor 3. It is started ahead of its call and put
 * in the call's cgroup then, so the kernel's slow cgroup move is not on the call's path, and it starts nothing before
 * its orders come.
 */
const LAUNCHER_SCRIPT = [
  'read_word() { IFS= read -r -d "" "$1" <&4; }',
  'read_word c && read_word f && read_word p && read_word n || exit 125',
  'words=(); for ((i = 0; i < n; i++)); do read_word w || exit 125; words+=("$w"); done',
  'exec 4<&-',
  'ulimit -S -t "$c" && ulimit -H -t $((c + 5)) && ulimit -f "$f" || { echo "ankole sandbox: cannot set the CPU and file size limits" >&2; exit 125; }',
  '[ "$p" = - ] || ulimit -u "$p" || { echo "ankole sandbox: cannot set the process limit" >&2; exit 125; }',
  'echo 1000 > /proc/self/oom_score_adj 2>/dev/null',
  'exec "$0" --args 5 -- "${words[@]}"',
].join('\n');

/** The size of bash's `ulimit -f` block. */
export const LAUNCHER_FILE_BLOCK_BYTES = 1024;

/**
 * Starts a launcher for bubblewrap `bwrap` (with bash), in its own process group, and moves it into `cgroup`.
 * @throws Error when bash cannot be started.
 */
export function startLauncher(options: { bash: string; bwrap: string; cgroup: CallCgroup | undefined }): Launcher {
  const child = spawn(options.bash, ['-c', LAUNCHER_SCRIPT, options.bwrap], {
    cwd: '/',
    env: {},
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe'],
  }) as unknown as ChildProcessByStdio<null, Readable, Readable>;
  // While it waits it must not keep the worker's process alive (a program that ends ends with it: see `closeSync`).
  holdOpen(child, false);
  let exited = false;
  child.on('exit', () => (exited = true));
  child.on('error', () => (exited = true));
  const pid = child.pid;
  const { cgroup } = options;
  const placed =
    pid === undefined
      ? Promise.reject(new Error(`${options.bash} could not be started`))
      : cgroup === undefined
        ? Promise.resolve()
        : Promise.all(cgroup.joinFiles.map((file) => writeFile(file, String(pid)))).then(() => undefined);
  placed.catch(() => undefined);
  return { child, cgroup, placed, waiting: () => !exited && child.exitCode === null };
}

/** Gives a launcher its orders: it sets the limits and becomes bubblewrap. */
export function orderLauncher(launcher: Launcher, orders: LauncherOrders): void {
  holdOpen(launcher.child, true);
  const stdio = launcher.child.stdio as unknown as (Writable | null)[];
  const write = (index: number, data: Buffer | string) => {
    const stream = stdio[index];
    if (stream === null || stream === undefined) return;
    stream.on('error', () => undefined);
    stream.end(data);
  };
  const words = [String(Math.max(1, Math.ceil(orders.cpuSeconds))), String(Math.max(1, orders.fileBlocks)), orders.processLimit === undefined ? '-' : String(orders.processLimit), String(orders.command.length), ...orders.command];
  write(3, orders.seccomp ?? Buffer.alloc(0));
  write(5, `${orders.bwrapOptions.join('\0')}\0`);
  write(4, `${words.join('\0')}\0`);
}

/** Whether the launcher (its process and pipes) keeps the event loop alive. */
function holdOpen(child: Launcher['child'], hold: boolean): void {
  if (hold) child.ref();
  else child.unref();
  for (const stream of child.stdio as unknown as ({ ref?: () => void; unref?: () => void } | null)[]) {
    if (hold) stream?.ref?.();
    else stream?.unref?.();
  }
}

/** Stops a launcher that was never ordered (the sandbox closes). */
export function dismissLauncher(launcher: Launcher): void {
  try {
    if (launcher.child.pid !== undefined) process.kill(-launcher.child.pid, 'SIGKILL');
  } catch {
    // gone
  }
}
