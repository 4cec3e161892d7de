import type { ChildProcessByStdio } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { isInside } from '../home-folder.js';
import { createCallCgroup, type CgroupParent } from './call-cgroups.js';
import { userTasks } from './host-programs.js';
import { startNetworkProxy, type NetworkProxy, type ResolveHost } from './network-proxy.js';
import { dismissLauncher, LAUNCHER_FILE_BLOCK_BYTES, orderLauncher, startLauncher, type Launcher } from './sandbox-launcher.js';
import { realOrSelf } from './sandbox-mounts.js';
import { SANDBOX_NET_DIR } from './sandbox-scripts.js';
import { userFiles, type SandboxState } from './sandbox-state.js';

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

/** A sandbox set up and proven to work here: what every call is placed with. */
export interface Ready {
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

/** Starts a launcher for a later call, in a cgroup of its own (made here, with `presetLimits` when given) when the sandbox has cgroups. */
export function newLauncher(ready: Ready, cgroupName: string, presetLimits?: SandboxCallLimits): Launcher {
  const cgroup = ready.cgroups === undefined ? undefined : createCallCgroup(ready.cgroups, cgroupName);
  try {
    if (presetLimits !== undefined) cgroup?.setLimits({ memoryBytes: presetLimits.memoryBytes, maxProcesses: presetLimits.maxProcesses });
    return startLauncher({ bash: ready.bash, bwrap: ready.bwrap, cgroup });
  } catch (error) {
    void cgroup?.remove();
    throw error;
  }
}

export async function placeCall(
  ready: Ready,
  request: SandboxCallRequest,
  callName: string,
  resolveHost: ResolveHost | undefined,
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
        ...(resolveHost === undefined ? {} : { resolve: resolveHost }),
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

