import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processAlive } from './process-alive.js';

/** Where per-call cgroups are made: cgroup v1 (a memory and a pids hierarchy) or v2 (one unified tree). */
export type CgroupParent =
  | { version: 1; memory: string; pids: string }
  | { version: 2; dir: string };

/** One call's cgroup(s): the files its launcher writes its pid into, and what to read back. */
export interface CallCgroup {
  /** The files the command's first process is moved in by (its pid written there; v1: `tasks` of both; v2: `cgroup.procs`). */
  joinFiles: string[];
  /**
   * Sets the call's memory and process limits (nothing to write when they are those set already: a launcher made
   * ahead gets the last call's limits then).
   * @throws Error when the kernel refuses them.
   */
  setLimits(limits: { memoryBytes: number; maxProcesses: number }): void;
  /** Which limit the call hit: `memory` (the OOM killer stopped a process), `processes` (a fork was refused), or none. */
  limitsHit(): ('memory' | 'processes')[];
  /** Removes the cgroup(s) once every process has left (retries briefly while the last ones are reaped). */
  remove(): Promise<void>;
}

const CGROUP_ROOT = '/sys/fs/cgroup';

/**
 * Finds and prepares where this worker can make per-call cgroups with the memory and pids controllers, under
 * its own cgroup (so limits set on the worker still hold): v1 `memory` and `pids` hierarchies, or the v2 tree
 * when the worker's cgroup (or the root, when the worker runs as root) can delegate both controllers. Makes
 * `<parent>/ankole-<pid>`; `undefined` when nothing is writable (not root and no delegation): the caller
 * falls back to RLIMIT_NPROC and has no memory limit.
 */
export function createCgroupParent(name: string, cgroupFile = '/proc/self/cgroup'): CgroupParent | undefined {
  let lines: string[];
  try {
    lines = readFileSync(cgroupFile, 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const own = (controller: string): string | undefined => {
    for (const line of lines) {
      const [, controllers, where] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
      if (controllers !== undefined && controllers.split(',').includes(controller)) return where;
    }
    return undefined;
  };
  const memory = own('memory');
  const pids = own('pids');
  if (memory !== undefined && pids !== undefined && existsSync(path.join(CGROUP_ROOT, 'memory', 'memory.limit_in_bytes'))) {
    const parent = { version: 1 as const, memory: path.join(CGROUP_ROOT, 'memory', memory, name), pids: path.join(CGROUP_ROOT, 'pids', pids, name) };
    try {
      mkdirSync(parent.memory, { recursive: true });
      mkdirSync(parent.pids, { recursive: true });
      return parent;
    } catch {
      removeCgroupParent(parent);
      return undefined;
    }
  }
  const unified = lines.find((line) => line.startsWith('0::'))?.slice(3);
  if (unified === undefined || !existsSync(path.join(CGROUP_ROOT, 'cgroup.controllers'))) return undefined;
  // The worker's own cgroup holds the worker: v2 lets it delegate controllers only if it holds no process, so
  // try its parent's level first only when that is the root (as root); else the worker's own cgroup.
  for (const base of [CGROUP_ROOT, path.join(CGROUP_ROOT, unified)]) {
    const dir = path.join(base, name);
    try {
      enableControllers(base);
      mkdirSync(dir);
      enableControllers(dir);
      if (existsSync(path.join(dir, 'cgroup.subtree_control')) && readFileSync(path.join(dir, 'cgroup.subtree_control'), 'utf8').includes('memory')) {
        return { version: 2, dir };
      }
      rmdirSync(dir);
    } catch {
      try {
        rmdirSync(dir);
      } catch {
        // not made
      }
    }
  }
  return undefined;
}

function enableControllers(dir: string): void {
  const enabled = readFileSync(path.join(dir, 'cgroup.subtree_control'), 'utf8');
  if (enabled.includes('memory') && enabled.includes('pids')) return;
  writeFileSync(path.join(dir, 'cgroup.subtree_control'), '+memory +pids');
}

/** Removes the parent and the calls' cgroups left in it (empty ones: a cgroup with a process in it stays). */
export function removeCgroupParent(parent: CgroupParent): void {
  for (const dir of parent.version === 1 ? [parent.memory, parent.pids] : [parent.dir]) removeEmptyCgroup(dir);
}

/**
 * Removes what workers that died without cleaning up (killed) left next to `parent`: `ankole-<pid>-…` cgroups
 * whose pid is no longer running, with their empty call cgroups.
 */
export function sweepDeadCgroups(parent: CgroupParent): void {
  for (const dir of parent.version === 1 ? [parent.memory, parent.pids] : [parent.dir]) {
    const folder = path.dirname(dir);
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue;
    }
    for (const name of names) {
      const pid = /^ankole-(\d+)-[0-9a-f]{8}$/.exec(name)?.[1];
      if (pid !== undefined && !processAlive(Number(pid))) removeEmptyCgroup(path.join(folder, name));
    }
  }
}

function removeEmptyCgroup(dir: string): void {
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) removeEmptyCgroup(path.join(dir, entry.name));
    }
    rmdirSync(dir);
  } catch {
    // gone already, or a process is still in it
  }
}

/**
 * Makes one call's cgroup under `parent` (its limits are set by `setLimits` when its call comes): memory (v1:
 * `memory.limit_in_bytes` and, where swap is accounted, `memory.memsw.limit_in_bytes` at the same figure; v2:
 * `memory.max` and `memory.swap.max` 0) and processes (`pids.max`).
 * @throws Error when the cgroup cannot be made (the caller refuses the call: limits are not silently dropped).
 */
export function createCallCgroup(parent: CgroupParent, name: string): CallCgroup {
  const dirs = parent.version === 1 ? [path.join(parent.memory, name), path.join(parent.pids, name)] : [path.join(parent.dir, name)];
  for (const dir of dirs) mkdirSync(dir);
  const [memoryDir, pidsDir] = parent.version === 1 ? (dirs as [string, string]) : [dirs[0]!, dirs[0]!];
  const oomKills = (): number => counter(path.join(memoryDir, parent.version === 1 ? 'memory.oom_control' : 'memory.events'), 'oom_kill');
  const refusedForks = (): number => counter(path.join(pidsDir, 'pids.events'), 'max');
  let current: { memory: number; processes: number } | undefined;
  return {
    joinFiles: parent.version === 1 ? [path.join(memoryDir, 'tasks'), path.join(pidsDir, 'tasks')] : [path.join(memoryDir, 'cgroup.procs')],
    setLimits(limits) {
      const memory = Math.floor(limits.memoryBytes);
      const processes = Math.floor(limits.maxProcesses);
      if (current?.memory === memory && current.processes === processes) return;
      if (parent.version === 1) {
        // memsw may never be below the memory limit: lower the limit first, raise memsw first.
        const swap = path.join(memoryDir, 'memory.memsw.limit_in_bytes');
        const writes = [path.join(memoryDir, 'memory.limit_in_bytes'), ...(existsSync(swap) ? [swap] : [])];
        if (current !== undefined && memory > current.memory) writes.reverse();
        for (const file of writes) writeFileSync(file, String(memory));
      } else {
        writeFileSync(path.join(memoryDir, 'memory.max'), String(memory));
        const swap = path.join(memoryDir, 'memory.swap.max');
        if (existsSync(swap)) writeFileSync(swap, '0');
      }
      writeFileSync(path.join(pidsDir, 'pids.max'), String(processes));
      current = { memory, processes };
    },
    limitsHit() {
      const hit: ('memory' | 'processes')[] = [];
      if (oomKills() > 0) hit.push('memory');
      if (refusedForks() > 0) hit.push('processes');
      return hit;
    },
    async remove() {
      for (const dir of dirs) {
        for (let attempt = 0; ; attempt += 1) {
          try {
            rmdirSync(dir);
            break;
          } catch (error) {
            const code = (error as NodeJS.ErrnoException).code;
            if (code === 'ENOENT' || attempt >= 50) break;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
      }
    },
  };
}

/** A `name N` line's number in a cgroup file (0 when absent or unreadable). */
function counter(file: string, name: string): number {
  try {
    const line = readFileSync(file, 'utf8').split('\n').find((entry) => entry.startsWith(`${name} `));
    return line === undefined ? 0 : Number(line.slice(name.length + 1));
  } catch {
    return 0;
  }
}
