import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isInside } from '../home-folder.js';
import type { SandboxState } from './sandbox-state.js';

/** Namespaces, identity, the system folders read-only, the /etc snapshot, /dev and /proc. */
export function fixedArguments(options: { state: SandboxState; root: boolean; uid: number; gid: number; canDisableUserns: boolean }): string[] {
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
export function runtimeArguments(protectedPaths: readonly string[], undiciEntry: string | undefined): string[] {
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

const require_ = createRequire(import.meta.url);

export function resolvePackageEntry(specifier: string): string | undefined {
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

export function realOrSelf(entry: string): string {
  try {
    return realpathSync(entry);
  } catch {
    return path.resolve(entry);
  }
}

