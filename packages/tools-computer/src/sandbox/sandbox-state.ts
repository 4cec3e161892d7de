import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  constants as fsConstants,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processAlive } from './process-alive.js';

/**
 * The parts of `/etc` a command's programs need (dynamic loader, name service, TLS roots, time zone, shells,
 * tool defaults): copied once into the sandbox's own `/etc`, read-only. Files not readable by everyone
 * (`shadow`, `ssl/private`, keys) are never copied, whatever their name.
 */
const ETC_ENTRIES = [
  'alternatives', 'bash.bashrc', 'ca-certificates', 'ca-certificates.conf', 'crypto-policies', 'debian_version', 'gai.conf',
  'gitconfig', 'host.conf', 'inputrc', 'ld.so.cache', 'ld.so.conf', 'ld.so.conf.d', 'locale.alias', 'localtime', 'magic',
  'magic.mime', 'mime.types', 'networks', 'npmrc', 'nsswitch.conf', 'os-release', 'pip.conf', 'pki', 'profile', 'protocols',
  'python3', 'resolv.conf', 'services', 'shells', 'ssl', 'terminfo', 'timezone', 'wgetrc', 'xattr.conf',
];
const ETC_PREFIXES = ['python3.'];
/** Sub-folders never copied, wherever they are (private keys). */
const PRIVATE_FOLDERS = new Set(['private']);

/** The device nodes of the sandbox's `/dev` when the worker runs as root: [name, major, minor]. */
const DEVICES: readonly (readonly [string, number, number])[] = [
  ['null', 1, 3], ['zero', 1, 5], ['full', 1, 7], ['random', 1, 8], ['urandom', 1, 9], ['tty', 5, 0],
];
const NOBODY = 65534;

/** The sandbox's files on the worker's side, made once per sandbox and removed by `removeSandboxState`. */
export interface SandboxState {
  /** The private folder (mode 0700 for everyone but its owner). */
  dir: string;
  /** The `/etc` snapshot (bound read-only at `/etc`). */
  etc: string;
  /**
   * The `/dev` folder of device nodes owned by nobody (bound at `/dev` when the worker runs as root), or
   * `undefined` when none could be made (bubblewrap's own `/dev` is used then).
   */
  dev: string | undefined;
  /** Where per-call sockets (the network proxy's) are made. */
  sockets: string;
}

/**
 * Makes the sandbox's state folder: a copy of the needed parts of `/etc` (with a `hosts` naming only
 * localhost), and, when the worker runs as root, a `/dev` of device nodes owned by nobody (bubblewrap's own
 * `/dev` binds the host's nodes, which the sandbox user could then chmod, being root's uid outside).
 * @throws Error when the folder cannot be made (the caller reports the sandbox as unavailable).
 */
export function createSandboxState(options: { root: boolean; tmpdir?: string }): SandboxState {
  // /dev last: a devtmpfs always allows device nodes, where the others may be mounted nodev.
  const candidates = [options.tmpdir ?? os.tmpdir(), '/var/tmp', '/run', '/dev'];
  sweepDeadStates(candidates[0]!);
  const dir = mkdtempSync(path.join(candidates[0]!, `ankole-sandbox-${process.pid}-`));
  try {
    chmodSync(dir, 0o755);
    const etc = path.join(dir, 'etc');
    mkdirSync(etc);
    copyEtc('/etc', etc);
    writeFileSync(path.join(etc, 'hosts'), '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n', { mode: 0o644 });
    writeFileSync(path.join(etc, 'hostname'), 'sandbox\n', { mode: 0o644 });
    // passwd and group name the sandbox user and its home (the agent's): each call binds its home's pair at
    // /etc/ankole-user (one mount; made once per home, see `userFiles`).
    mkdirSync(path.join(etc, 'ankole-user'), { mode: 0o755 });
    for (const name of ['passwd', 'group']) symlinkSync(`ankole-user/${name}`, path.join(etc, name));
    mkdirSync(path.join(dir, 'users'), { mode: 0o755 });
    const sockets = path.join(dir, 'sockets');
    mkdirSync(sockets, { mode: 0o700 });
    let dev: string | undefined;
    if (options.root) {
      dev = tryDeviceFolder(path.join(dir, 'dev'));
      // Elsewhere only when the state folder's file system is mounted nodev (each tried in turn, removed if no good).
      for (const base of candidates.slice(1)) {
        if (dev !== undefined) break;
        const elsewhere = tryTempDir(base);
        if (elsewhere === undefined) continue;
        dev = tryDeviceFolder(path.join(elsewhere, 'dev'));
        if (dev === undefined) rmSync(elsewhere, { recursive: true, force: true });
      }
    }
    return { dir, etc, dev, sockets };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The folder holding the passwd and group files of one home (bound at `/etc/ankole-user`): the sandbox user
 * (`name`, `uid`, `gid`) with that home, and nobody. Made at the first call for the home, then reused.
 */
export function userFiles(state: SandboxState, made: Map<string, string>, user: { name: string; uid: number; gid: number; home: string }): string {
  const known = made.get(user.home);
  if (known !== undefined) return known;
  const dir = path.join(state.dir, 'users', String(made.size));
  mkdirSync(dir, { mode: 0o755 });
  writeFileSync(path.join(dir, 'passwd'), `${user.name}:x:${user.uid}:${user.gid}:Ankole agent:${user.home}:/bin/bash\nnobody:x:${NOBODY}:${NOBODY}:nobody:/nonexistent:/usr/sbin/nologin\n`, { mode: 0o644 });
  writeFileSync(path.join(dir, 'group'), `${user.name}:x:${user.gid}:\nnogroup:x:${NOBODY}:\n`, { mode: 0o644 });
  made.set(user.home, dir);
  return dir;
}

/** Removes the state folders of workers that died without cleaning up (killed): `ankole-sandbox-<pid>-…` of a pid gone. */
function sweepDeadStates(base: string): void {
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const pid = /^ankole-sandbox-(\d+)-/.exec(name)?.[1];
    if (pid === undefined || processAlive(Number(pid))) continue;
    const dir = path.join(base, name);
    try {
      // Only our own (another user's folder is theirs to clean).
      if (uid === undefined || lstatSync(dir).uid === uid) rmSync(dir, { recursive: true, force: true });
    } catch {
      // gone meanwhile
    }
  }
}

/** Removes the state folder (and a `/dev` made elsewhere). */
export function removeSandboxState(state: SandboxState): void {
  rmSync(state.dir, { recursive: true, force: true });
  if (state.dev !== undefined && !state.dev.startsWith(`${state.dir}${path.sep}`)) rmSync(path.dirname(state.dev), { recursive: true, force: true });
}

function copyEtc(source: string, target: string): void {
  let names: string[];
  try {
    names = readdirSync(source);
  } catch {
    return;
  }
  for (const name of names) {
    if (!ETC_ENTRIES.includes(name) && !ETC_PREFIXES.some((prefix) => name.startsWith(prefix))) continue;
    copyEntry(path.join(source, name), path.join(target, name));
  }
}

/** Copies a file, symlink or folder (recursively), skipping what not everyone may read and private folders. */
function copyEntry(source: string, target: string): void {
  let info;
  try {
    info = lstatSync(source);
  } catch {
    return;
  }
  if (info.isSymbolicLink()) {
    symlinkSync(readlinkSync(source), target);
  } else if (info.isDirectory()) {
    if (PRIVATE_FOLDERS.has(path.basename(source)) || (info.mode & 0o005) !== 0o005) return;
    mkdirSync(target, { mode: 0o755 });
    for (const name of readdirSync(source)) copyEntry(path.join(source, name), path.join(target, name));
  } else if (info.isFile() && (info.mode & 0o004) !== 0) {
    try {
      copyFileSync(source, target);
      chmodSync(target, 0o644);
    } catch {
      // unreadable after all: left out
    }
  }
}

function tryTempDir(base: string): string | undefined {
  try {
    const dir = mkdtempSync(path.join(base, `ankole-sandbox-${process.pid}-dev-`));
    chmodSync(dir, 0o755);
    return dir;
  } catch {
    return undefined;
  }
}

/** Makes device nodes owned by nobody in `dev`; `undefined` when they cannot be made or used there (a `nodev` mount). */
function tryDeviceFolder(dev: string): string | undefined {
  try {
    mkdirSync(dev, { mode: 0o755 });
    for (const [name, major, minor] of DEVICES) {
      execFileSync('mknod', ['-m', '666', path.join(dev, name), 'c', String(major), String(minor)], { stdio: 'ignore' });
      chownSync(path.join(dev, name), NOBODY, NOBODY);
    }
    // A nodev mount refuses to open the node.
    closeSync(openSync(path.join(dev, 'null'), fsConstants.O_WRONLY));
    for (const name of ['shm', 'pts']) mkdirSync(path.join(dev, name), { mode: 0o755 });
    for (const [name, target] of [['fd', '/proc/self/fd'], ['stdin', '/proc/self/fd/0'], ['stdout', '/proc/self/fd/1'], ['stderr', '/proc/self/fd/2']] as const) {
      symlinkSync(target, path.join(dev, name));
    }
    for (const name of ['shm', 'pts', '.']) chownSync(path.join(dev, name), NOBODY, NOBODY);
    return dev;
  } catch {
    rmSync(dev, { recursive: true, force: true });
    return undefined;
  }
}
