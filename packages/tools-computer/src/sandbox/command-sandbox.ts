import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, constants as fsConstants, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { isInside } from '../home-folder.js';
import { createCallCgroup, createCgroupParent, removeCgroupParent, sweepDeadCgroups, type CallCgroup, type CgroupParent } from './call-cgroups.js';
import { startNetworkProxy, type NetworkProxy, type ResolveHost } from './network-proxy.js';
import { BRIDGE_SCRIPT, fetchPreloadScript, SANDBOX_NET_DIR } from './sandbox-scripts.js';
import { dismissLauncher, LAUNCHER_FILE_BLOCK_BYTES, orderLauncher, startLauncher, type Launcher } from './sandbox-launcher.js';
import { createSandboxState, removeSandboxState, userFiles, type SandboxState } from './sandbox-state.js';
import { seccompArchitecture, seccompFilter } from './seccomp-filter.js';

/** The sentence every refusal for a missing sandbox ends with. */
export const INSTALL_BUBBLEWRAP = 'install bubblewrap (Debian/Ubuntu: `apt-get install bubblewrap`; Fedora: `dnf install bubblewrap`)';

/** Options of `createCommandSandbox`. */
export interface CommandSandboxOptions {
  /** The bubblewrap program (default: `bwrap` found on `PATH`, then `/usr/bin/bwrap`); one that is not executable counts as missing. */
  bwrap?: string;
  /**
   * Folders that must never become visible inside (the worker's data folder; its HOME is always added): a runtime
   * bind that holds one is left out, and a call whose agent home holds one is refused.
   */
  protectedPaths?: readonly string[];
  /** The uid (and gid) commands run as inside when the worker runs as root (default 1000); otherwise the worker's own. */
  rootSandboxUid?: number;
  /** Where the sandbox keeps its files (default `os.tmpdir()`). */
  tmpdir?: string;
  /** Resolves host names for the network proxy (tests). */
  resolveHost?: ResolveHost;
  /** Leave out the cgroup limits (memory, processes) even where cgroups are writable: RLIMIT_NPROC only (tests). */
  noCgroups?: boolean;
}

/** What the sandbox can do here, for headers and `ankole tools`. */
export type CommandSandboxStatus =
  | {
      available: true;
      /** e.g. `bubblewrap 0.8.0`. */
      mechanism: string;
      /** The uid commands run as inside. */
      uid: number;
      /**
       * How memory and process limits are enforced: `cgroup v1`, `cgroup v2`, `rlimit` (processes only, no memory
       * limit), or `none` (a root worker without a writable cgroup: RLIMIT_NPROC does not bind root's uid).
       */
      limits: 'cgroup v1' | 'cgroup v2' | 'rlimit' | 'none';
      seccomp: boolean;
    }
  | { available: false; reason: string };

/** One call's limits (from `ComputerLimits`). */
export interface SandboxCallLimits {
  memoryBytes: number;
  maxProcesses: number;
  cpuSeconds: number;
  maxFileBytes: number;
  tmpBytes: number;
}

/** One sandboxed call, placed: its launcher waits (in the call's cgroup) for `launch`. */
export interface SandboxedCall {
  /**
   * Starts the command with `env` (its whole environment inside): the launcher sets the limits and becomes
   * bubblewrap. Returns that process: its stdout and stderr are the command's; it exits when the command does.
   * @throws SandboxLaunchError when the launcher could not be placed in the call's cgroup or has died.
   */
  launch(env: Readonly<Record<string, string>>): Promise<ChildProcessByStdio<null, Readable, Readable>>;
  /** The limits the call hit, by name (read after the call). */
  limitsHit(): ('memory' | 'processes')[];
  /** The network proxy's refusals during the call. */
  networkRefusals(): string[];
  /** Frees the call's proxy now and its cgroup soon (after every process is gone). */
  release(): Promise<void>;
}

/** A sandboxed call could not be started (its launcher could not be placed in its cgroup, or died). */
export class SandboxLaunchError extends Error {
  readonly code = 'sandbox_failed';
}

/** What a call needs to be placed in the sandbox. */
export interface SandboxCallRequest {
  home: string;
  shell: string;
  command: string;
  limits: SandboxCallLimits;
  /** Hosts the command may reach through the proxy; empty: no network at all. */
  allowHosts: readonly string[];
}

/**
 * The OS sandbox every `command` runs in (bubblewrap on Linux). Made once per worker and shared by its turns;
 * `close()` removes its files and cgroups.
 */
export interface CommandSandbox {
  /** Whether the sandbox works here (the first call sets it up and runs `true` in it; later calls answer at once). */
  status(): Promise<CommandSandboxStatus>;
  /**
   * What can be told without setting anything up (for a turn's header): `undefined` when bubblewrap is there on
   * Linux (`status()` has the last word), else why commands will be refused.
   */
  quickCheck(): string | undefined;
  /**
   * Places one call in the sandbox.
   * @throws SandboxUnavailableError when the sandbox cannot be made here; Error when the call's cgroup or proxy cannot be made.
   */
  prepareCall(request: SandboxCallRequest): Promise<SandboxedCall>;
  /** Removes the sandbox's files and cgroups (calls still running keep what they hold until they end). */
  close(): Promise<void>;
  /** `close()`, synchronously (for an `exit` handler). */
  closeSync(): void;
}

/** The sandbox cannot be made on this machine (no bubblewrap, user namespaces off, not Linux). */
export class SandboxUnavailableError extends Error {
  readonly code = 'sandbox_unavailable';
}

interface Ready {
  bwrap: string;
  version: string;
  state: SandboxState;
  cgroups: CgroupParent | undefined;
  /** bash, which runs the launchers. */
  bash: string;
  uid: number;
  gid: number;
  userName: string;
  seccomp: Buffer | undefined;
  /** Arguments that are the same for every call (namespaces, system folders, /etc, /dev, /proc). */
  fixedArgs: string[];
  /** Read-only binds of the Node runtime and the mcporter launcher's packages. */
  runtimeArgs: string[];
  /** The preload (undici) is available: allowed hosts work for Node's fetch too. */
  undiciEntry: string | undefined;
  canDisableUserns: boolean;
  /** The passwd/group folder of each home (see `userFiles`). */
  userFiles: Map<string, string>;
  /** The worker runs as root. */
  root: boolean;
  /** Folders no bind may hold (real paths). */
  protectedPaths: readonly string[];
}

/**
 * Makes the command sandbox. Nothing happens until the first `status()` or `prepareCall()`: then it finds
 * bubblewrap, copies the needed parts of `/etc`, prepares cgroups and runs `true` inside once to prove it works.
 */
export function createCommandSandbox(options: CommandSandboxOptions = {}): CommandSandbox {
  let ready: Promise<Ready | { unavailable: string }> | undefined;
  let prepared: Ready | undefined;
  let closed = false;
  let callNumber = 0;
  /** Cgroups of finished calls being removed (off the calls' path: removing a memory cgroup can take a while). */
  const removals = new Set<Promise<void>>();
  const name = `ankole-${process.pid}-${randomUUID().slice(0, 8)}`;
  const setUp = (): Promise<Ready | { unavailable: string }> =>
    (ready ??= prepare(options, name).then((outcome) => {
      if (!('unavailable' in outcome)) prepared = outcome;
      return outcome;
    }));
  /** A launcher started ahead of the next call (in its cgroup already), so that call does not wait for that. */
  let spare: Launcher | undefined;
  let launcherNumber = 0;
  const nextLauncher = (outcome: Ready): Launcher => {
    launcherNumber += 1;
    return newLauncher(outcome, `call-${launcherNumber}`);
  };
  const takeLauncher = (outcome: Ready) => (): Launcher => {
    const taken = spare !== undefined && spare.waiting() ? spare : undefined;
    if (spare !== undefined && taken === undefined) dropLauncher(spare);
    spare = undefined;
    // The next one starts once this call is under way.
    setImmediate(() => {
      if (closed || spare !== undefined) return;
      try {
        spare = nextLauncher(outcome);
      } catch {
        // the next call starts its own
      }
    });
    return taken ?? nextLauncher(outcome);
  };
  const dropLauncher = (launcher: Launcher): void => {
    dismissLauncher(launcher);
    if (launcher.cgroup !== undefined) {
      const removal = launcher.cgroup.remove();
      removals.add(removal);
      void removal.finally(() => removals.delete(removal));
    }
  };
  const closeSync = (): void => {
    if (prepared === undefined || closed) return;
    closed = true;
    if (spare !== undefined) dismissLauncher(spare);
    spare = undefined;
    if (prepared.cgroups !== undefined) removeCgroupParent(prepared.cgroups);
    removeSandboxState(prepared.state);
  };

  return {
    async status() {
      const outcome = await setUp();
      if ('unavailable' in outcome) return { available: false, reason: outcome.unavailable };
      return {
        available: true,
        mechanism: `bubblewrap ${outcome.version}`,
        uid: outcome.uid,
        limits: outcome.cgroups !== undefined ? (outcome.cgroups.version === 1 ? 'cgroup v1' : 'cgroup v2') : outcome.root ? 'none' : 'rlimit',
        seccomp: outcome.seccomp !== undefined,
      };
    },
    quickCheck() {
      return platformProblem() ?? (bubblewrapProgram(options) === undefined ? missingBwrap() : undefined);
    },
    async prepareCall(request) {
      const outcome = await setUp();
      if ('unavailable' in outcome) throw new SandboxUnavailableError(outcome.unavailable);
      if (closed) throw new SandboxUnavailableError('The command sandbox was closed: the worker is shutting down.');
      callNumber += 1;
      return placeCall(outcome, request, `call-${callNumber}`, options, takeLauncher(outcome), (removal) => {
        removals.add(removal);
        void removal.finally(() => removals.delete(removal));
      });
    },
    async close() {
      if (ready !== undefined) await ready;
      if (spare !== undefined) dropLauncher(spare);
      spare = undefined;
      await Promise.all(removals);
      closeSync();
    },
    closeSync,
  };
}

async function prepare(options: CommandSandboxOptions, name: string): Promise<Ready | { unavailable: string }> {
  const platform = platformProblem();
  if (platform !== undefined) return { unavailable: platform };
  const bwrap = bubblewrapProgram(options);
  if (bwrap === undefined) return { unavailable: missingBwrap() };
  const help = await runQuiet(bwrap, ['--help']);
  const version = (await runQuiet(bwrap, ['--version'])).stdout.trim().replace(/^bubblewrap\s*/, '') || 'unknown';
  const root = process.getuid?.() === 0;
  const uid = root ? (options.rootSandboxUid ?? 1000) : (process.getuid?.() ?? 1000);
  const gid = root ? (options.rootSandboxUid ?? 1000) : (process.getgid?.() ?? 1000);
  let state: SandboxState;
  try {
    state = createSandboxState({ root, ...(options.tmpdir === undefined ? {} : { tmpdir: options.tmpdir }) });
  } catch (error) {
    return { unavailable: `The command sandbox could not prepare its files (${(error as Error).message}).` };
  }
  if (root && state.dev === undefined) {
    removeSandboxState(state);
    // bubblewrap's own /dev would bind the host's device nodes, which the sandbox user (root's uid outside) could chmod.
    return { unavailable: 'The command sandbox could not make its own device nodes (every candidate folder is mounted nodev), and the worker runs as root: run the worker as an ordinary user, or opt out of the sandbox explicitly (--unsandboxed-commands).' };
  }
  const cgroups = options.noCgroups === true ? undefined : createCgroupParent(name);
  if (cgroups !== undefined) sweepDeadCgroups(cgroups);
  const architecture = seccompArchitecture();
  const bash = findProgram('bash');
  if (bash === undefined) {
    removeSandboxState(state);
    return { unavailable: 'The command sandbox needs bash (it starts each sandbox): install bash.' };
  }
  const undiciEntry = resolvePackageEntry('undici');
  writeFileSync(path.join(state.dir, 'empty'), '', { mode: 0o444 });
  const net = path.join(state.dir, 'net');
  mkdirSync(net, { mode: 0o755 });
  writeFileSync(path.join(net, 'bridge.mjs'), BRIDGE_SCRIPT, { mode: 0o444 });
  writeFileSync(path.join(net, 'proxy.sock'), '', { mode: 0o444 });
  if (undiciEntry !== undefined) writeFileSync(path.join(net, 'fetch-proxy.mjs'), fetchPreloadScript(pathToFileURL(undiciEntry).href), { mode: 0o444 });
  // The worker's own HOME is never shown, whatever the caller lists.
  const protectedPaths = [...new Set([...(options.protectedPaths ?? []), os.homedir()].map((entry) => realOrSelf(entry)))];
  const ready: Ready = {
    bwrap,
    version,
    state,
    cgroups,
    bash,
    uid,
    gid,
    userName: root ? 'agent' : safeUserName(),
    seccomp: architecture === undefined ? undefined : seccompFilter(architecture),
    fixedArgs: fixedArguments({ state, root, uid, gid, canDisableUserns: help.stdout.includes('--disable-userns') }),
    runtimeArgs: runtimeArguments(protectedPaths, undiciEntry),
    undiciEntry,
    canDisableUserns: help.stdout.includes('--disable-userns'),
    userFiles: new Map(),
    root,
    protectedPaths,
  };
  // Prove it works here (user namespaces may be off): run `true` inside, the way every call runs.
  const trial = await trialRun(ready);
  if (trial !== undefined) {
    if (cgroups !== undefined) removeCgroupParent(cgroups);
    removeSandboxState(state);
    const namespaces = /namespace|uid map|Operation not permitted|setting up uid/i.test(trial)
      ? ': enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 kernel.apparmor_restrict_unprivileged_userns=0)'
      : '';
    return { unavailable: `Commands run in a bubblewrap sandbox and it cannot start here (${trial})${namespaces}.` };
  }
  return ready;
}

function bubblewrapProgram(options: CommandSandboxOptions): string | undefined {
  if (options.bwrap === undefined) return findProgram('bwrap');
  try {
    accessSync(options.bwrap, fsConstants.X_OK);
    return options.bwrap;
  } catch {
    return undefined;
  }
}

function platformProblem(): string | undefined {
  if (process.platform === 'linux') return undefined;
  return `Commands cannot be sandboxed on ${process.platform}: only Linux (bubblewrap) is supported; run the worker on Linux, or opt out of the sandbox explicitly (--unsandboxed-commands).`;
}

function missingBwrap(): string {
  return `Commands run in a bubblewrap sandbox and bwrap is not installed here: ${INSTALL_BUBBLEWRAP}.`;
}

async function trialRun(ready: Ready): Promise<string | undefined> {
  const home = path.join(ready.state.dir, 'trial-home');
  mkdirSync(home, { mode: 0o777 });
  let call: SandboxedCall;
  const removals: Promise<void>[] = [];
  try {
    const limits = { memoryBytes: 256 * 1024 * 1024, maxProcesses: 64, cpuSeconds: 10, maxFileBytes: 1024 * 1024, tmpBytes: 1024 * 1024 };
    call = await placeCall(ready, { home, shell: '/bin/sh', command: 'true', allowHosts: [], limits }, 'trial', {}, () => newLauncher(ready, 'trial'), (removal) => removals.push(removal));
  } catch (error) {
    return (error as Error).message;
  }
  try {
    const child = await call.launch({ PATH: '/usr/bin:/bin' });
    const result = await outcomeOf(child);
    return result.code === 0 ? undefined : (result.stderr.trim().split('\n').at(-1) ?? `exit code ${String(result.code)}`);
  } catch (error) {
    return (error as Error).message;
  } finally {
    await call.release();
    await Promise.all(removals);
  }
}

/** Namespaces, identity, the system folders read-only, the /etc snapshot, /dev and /proc. */
function fixedArguments(options: { state: SandboxState; root: boolean; uid: number; gid: number; canDisableUserns: boolean }): string[] {
  const args = ['--unshare-user', '--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try'];
  if (options.canDisableUserns) args.push('--disable-userns');
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--uid', String(options.uid), '--gid', String(options.gid), '--hostname', 'sandbox');
  args.push('--ro-bind', '/usr', '/usr');
  for (const top of ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32']) {
    let info;
    try {
      info = lstatSync(top);
    } catch {
      continue;
    }
    if (info.isSymbolicLink()) args.push('--symlink', readlinkSync(top), top);
    else if (info.isDirectory()) args.push('--ro-bind', top, top);
  }
  args.push('--ro-bind', options.state.etc, '/etc');
  if (options.state.dev !== undefined) args.push('--dev-bind', options.state.dev, '/dev', '--tmpfs', '/dev/shm');
  else args.push('--dev', '/dev');
  args.push('--proc', '/proc');
  // bubblewrap already makes /proc/sys, sysrq-trigger, irq and bus read-only; hide what tells of the host or its keys.
  // (kcore, kmsg and kallsyms' addresses need capabilities the sandbox never has.)
  for (const entry of ['/proc/keys', '/proc/key-users', '/proc/timer_list', '/proc/sched_debug']) {
    if (existsSync(entry)) args.push('--ro-bind', path.join(options.state.dir, 'empty'), entry);
  }
  return args;
}

/** Read-only binds of the Node runtime (when outside /usr) and the packages the mcporter launcher and the fetch preload load. */
function runtimeArguments(protectedPaths: readonly string[], undiciEntry: string | undefined): string[] {
  const binds = new Set<string>();
  const node = realOrSelf(process.execPath);
  if (!node.startsWith('/usr/')) {
    binds.add(node);
    const globalModules = path.join(path.dirname(path.dirname(node)), 'lib', 'node_modules');
    if (existsSync(globalModules)) binds.add(globalModules);
  }
  const packageRoot = packageDir('@core/tools-computer');
  if (packageRoot !== undefined) binds.add(packageRoot);
  const mcporter = packageRoot === undefined ? undefined : installedPackage(packageRoot, 'mcporter');
  for (const entry of [mcporter, undiciEntry]) {
    if (entry === undefined) continue;
    const topModules = topNodeModules(entry);
    if (topModules !== undefined) binds.add(topModules);
  }
  const args: string[] = [];
  const kept = [...binds].filter((bind) => !protectedPaths.some((hidden) => isInside(bind, hidden)));
  for (const bind of kept) {
    // A bind inside another one is already visible.
    if (kept.some((other) => other !== bind && isInside(other, bind))) continue;
    args.push('--ro-bind', bind, bind);
  }
  if (process.execPath !== node) args.push('--symlink', node, process.execPath);
  return args;
}

/** Starts a launcher for a later call, in a cgroup of its own (made here) when the sandbox has cgroups. */
function newLauncher(ready: Ready, cgroupName: string): Launcher {
  const cgroup = ready.cgroups === undefined ? undefined : createCallCgroup(ready.cgroups, cgroupName);
  try {
    return startLauncher({ bash: ready.bash, bwrap: ready.bwrap, cgroup });
  } catch (error) {
    void cgroup?.remove();
    throw error;
  }
}

async function placeCall(
  ready: Ready,
  request: SandboxCallRequest,
  callName: string,
  options: CommandSandboxOptions,
  takeLauncher: () => Launcher,
  removing: (removal: Promise<void>) => void = () => undefined,
): Promise<SandboxedCall> {
  const { limits } = request;
  const exposed = ready.protectedPaths.find((hidden) => isInside(realOrSelf(request.home), hidden));
  if (exposed !== undefined) {
    throw new Error(`the home folder ${request.home} holds ${exposed}, which commands must never see; give the agent a folder of its own`);
  }
  if (request.command.includes('\0')) throw new Error('the command holds a NUL character, which no program can be given');
  const launcher = takeLauncher();
  const { cgroup } = launcher;
  const drop = (): void => {
    dismissLauncher(launcher);
    if (cgroup !== undefined) removing(cgroup.remove());
  };
  let proxy: NetworkProxy | undefined;
  try {
    cgroup?.setLimits({ memoryBytes: limits.memoryBytes, maxProcesses: limits.maxProcesses });
    if (request.allowHosts.length > 0) {
      proxy = await startNetworkProxy({
        socketPath: path.join(ready.state.sockets, `${callName}-${randomUUID().slice(0, 8)}.sock`),
        allowHosts: request.allowHosts,
        ...(options.resolveHost === undefined ? {} : { resolve: options.resolveHost }),
      });
    }
  } catch (error) {
    drop();
    throw error;
  }
  const home = request.home;
  const args = [...ready.fixedArgs];
  args.push('--perms', '1777', '--size', String(Math.floor(limits.tmpBytes)), '--tmpfs', '/tmp');
  args.push('--ro-bind', userFiles(ready.state, ready.userFiles, { name: ready.userName, uid: ready.uid, gid: ready.gid, home }), '/etc/ankole-user');
  args.push(...ready.runtimeArgs);
  args.push('--bind', home, home, '--chdir', home);
  let command = [request.shell, '-c', request.command];
  if (proxy !== undefined) {
    args.push('--ro-bind', path.join(ready.state.dir, 'net'), SANDBOX_NET_DIR, '--ro-bind', proxy.socketPath, `${SANDBOX_NET_DIR}/proxy.sock`);
    const preload = ready.undiciEntry === undefined ? '' : `${SANDBOX_NET_DIR}/fetch-proxy.mjs`;
    command = [process.execPath, `${SANDBOX_NET_DIR}/bridge.mjs`, `${SANDBOX_NET_DIR}/proxy.sock`, preload, ...command];
  }
  if (ready.seccomp !== undefined) args.push('--seccomp', '3');
  // Without a cgroup, the process limit falls back to RLIMIT_NPROC. It counts every task of the user (all sandboxes
  // of this worker and the worker's own), so it is set above what runs now by the limit. (It does not bind root.)
  const processLimit = cgroup === undefined && !ready.root ? userTasks() + limits.maxProcesses : undefined;
  let launched = false;
  return {
    async launch(env) {
      launched = true;
      try {
        await launcher.placed;
      } catch (error) {
        drop();
        throw new SandboxLaunchError(`the command could not be placed in its cgroup (${(error as Error).message})`, { cause: error });
      }
      if (!launcher.waiting()) {
        drop();
        throw new SandboxLaunchError('the sandbox launcher ended before its command came');
      }
      const environment = Object.entries(env);
      if (environment.some(([name, value]) => name.includes('\0') || value.includes('\0') || name.includes('='))) {
        drop();
        throw new SandboxLaunchError('an environment variable holds a NUL character or a bad name');
      }
      orderLauncher(launcher, {
        cpuSeconds: limits.cpuSeconds,
        fileBlocks: Math.floor(limits.maxFileBytes / LAUNCHER_FILE_BLOCK_BYTES),
        processLimit,
        bwrapOptions: [...args, '--clearenv', ...environment.flatMap(([name, value]) => ['--setenv', name, value])],
        command,
        seccomp: ready.seccomp,
      });
      return launcher.child;
    },
    limitsHit: () => cgroup?.limitsHit() ?? [],
    networkRefusals: () => proxy?.refusals ?? [],
    release: async () => {
      await proxy?.close();
      if (!launched) dismissLauncher(launcher);
      if (cgroup !== undefined) removing(cgroup.remove());
    },
  };
}

/**
 * Tasks (threads) of this uid now (what RLIMIT_NPROC counts), from /proc; 0 when unknown. Only read where the
 * process limit falls back to RLIMIT_NPROC (no writable cgroup, not root).
 */
function userTasks(): number {
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

const require_ = createRequire(import.meta.url);

function resolvePackageEntry(specifier: string): string | undefined {
  try {
    return realpathSync(require_.resolve(specifier));
  } catch {
    return undefined;
  }
}

/** Where `name` is installed as seen from `fromDir` (Node's lookup: `node_modules/<name>` in it and each folder above), real path. */
function installedPackage(fromDir: string, name: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(candidate)) return realOrSelf(candidate);
    if (path.dirname(dir) === dir) return undefined;
  }
}

function packageDir(name: string): string | undefined {
  const manifest = resolvePackageEntry(`${name}/package.json`);
  return manifest === undefined ? undefined : path.dirname(manifest);
}

/** The outermost `node_modules` folder on a path (where every dependency of a package installed there can be found). */
function topNodeModules(file: string): string | undefined {
  const parts = file.split(path.sep);
  const index = parts.indexOf('node_modules');
  return index === -1 ? undefined : parts.slice(0, index + 1).join(path.sep);
}

function realOrSelf(entry: string): string {
  try {
    return realpathSync(entry);
  } catch {
    return path.resolve(entry);
  }
}

function safeUserName(): string {
  try {
    const name = os.userInfo().username;
    return /^[a-z_][a-z0-9_-]*$/i.test(name) ? name : 'agent';
  } catch {
    return 'agent';
  }
}

function findProgram(program: string): string | undefined {
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

function runQuiet(file: string, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return outcomeOf(child);
}

/** What a process printed and how it ended. */
function outcomeOf(child: { stdout: Readable | null; stderr: Readable | null; on(event: 'error', listener: (error: Error) => void): unknown; on(event: 'close', listener: (code: number | null) => void): unknown }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => resolve({ code: null, stdout, stderr: error.message }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
