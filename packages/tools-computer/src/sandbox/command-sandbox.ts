import { randomUUID } from 'node:crypto';
import { accessSync, constants as fsConstants, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCgroupParent, removeCgroupParent, sweepDeadCgroups } from './call-cgroups.js';
import { findProgram, outcomeOf, runQuiet, safeUserName } from './host-programs.js';
import type { ResolveHost } from './network-proxy.js';
import { newLauncher, placeCall, type Ready, type SandboxCallRequest, type SandboxedCall } from './place-call.js';
import { dismissLauncher, type Launcher } from './sandbox-launcher.js';
import { fixedArguments, realOrSelf, resolvePackageEntry, runtimeArguments } from './sandbox-mounts.js';
import { BRIDGE_SCRIPT, fetchPreloadScript } from './sandbox-scripts.js';
import { createSandboxState, removeSandboxState, type SandboxState } from './sandbox-state.js';
import { seccompArchitecture, seccompFilter } from './seccomp-filter.js';

export type { SandboxCallLimits, SandboxCallRequest, SandboxedCall } from './place-call.js';
export { SandboxLaunchError } from './place-call.js';

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
  /** The limits of the last call: the next launcher's cgroup gets them ahead (most calls have the same). */
  let lastLimits: SandboxCallRequest['limits'] | undefined;
  const nextLauncher = (outcome: Ready): Launcher => {
    launcherNumber += 1;
    return newLauncher(outcome, `call-${launcherNumber}`, lastLimits);
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
      lastLimits = request.limits;
      return placeCall(outcome, request, `call-${callNumber}`, options.resolveHost, takeLauncher(outcome), (removal) => {
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
    call = await placeCall(ready, { home, shell: '/bin/sh', command: 'true', allowHosts: [], limits }, 'trial', undefined, () => newLauncher(ready, 'trial'), (removal) => removals.push(removal));
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

