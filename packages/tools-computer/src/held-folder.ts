import { constants, promises as fs, type Dirent } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';

/**
 * An open folder of the home, held by a handle: entries are reached relative to the handle, so a folder of
 * the path being renamed or swapped for a symlink meanwhile changes nothing about which folder is used.
 */
export interface HeldFolder {
  /** The open folder (opened with `O_DIRECTORY | O_NOFOLLOW`). */
  readonly handle: FileHandle;
  /** Its path relative to the home (`''` for the home), as the tools show it. */
  readonly relative: string;
  /**
   * What an entry name is appended to: `/proc/self/fd/N` (Linux: the kernel resolves it to the held folder
   * itself, whatever its path is now), or the folder's real path where `/proc/self/fd` is unavailable.
   */
  readonly base: string;
}

const FOLDER_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The path of an entry of a held folder (never contains a symlink the kernel would follow before `name`). */
export function entryPath(folder: HeldFolder, name: string): string {
  return `${folder.base}/${name}`;
}

/**
 * Opens the home itself. `procFd`: reach entries through `/proc/self/fd` (Linux) rather than by path.
 * @throws the fs error when the home cannot be opened.
 */
export async function openHomeFolder(realRoot: string, procFd: boolean): Promise<HeldFolder> {
  const handle = await fs.open(realRoot, FOLDER_FLAGS);
  return { handle, relative: '', base: procFd ? `/proc/self/fd/${handle.fd}` : realRoot };
}

/**
 * Opens the folder `name` of a held folder without following a symlink (`O_NOFOLLOW`).
 * @throws the fs error: `ENOENT`, `ENOTDIR` (a file, or a symlink: see `readLinkAt`), …
 */
export async function openFolderAt(folder: HeldFolder, name: string): Promise<HeldFolder> {
  const handle = await fs.open(entryPath(folder, name), FOLDER_FLAGS);
  const relative = folder.relative === '' ? name : `${folder.relative}/${name}`;
  const procFd = folder.base.startsWith('/proc/self/fd/');
  return { handle, relative, base: procFd ? `/proc/self/fd/${handle.fd}` : path.join(folder.base, name) };
}

/**
 * Opens the file `name` of a held folder with `O_NOFOLLOW | O_NONBLOCK` added to `flags` (a symlink is not
 * followed: `ELOOP`; with `O_CREAT | O_EXCL` a symlink is `EEXIST`; a FIFO does not block).
 */
export function openFileAt(folder: HeldFolder, name: string, flags: number, mode?: number): Promise<FileHandle> {
  return fs.open(entryPath(folder, name), flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, mode);
}

/** The target of the symlink `name` of a held folder, or `undefined` when `name` is not a symlink (or is gone). */
export async function readLinkAt(folder: HeldFolder, name: string): Promise<string | undefined> {
  try {
    return await fs.readlink(entryPath(folder, name));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EINVAL' || code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** The entries of a held folder, read through its handle. */
export function readFolder(folder: HeldFolder): Promise<Dirent[]> {
  return fs.readdir(folder.base, { withFileTypes: true });
}

/** Closes held folders, ignoring errors (a handle closed twice, …). */
export async function closeFolders(folders: Iterable<HeldFolder>): Promise<void> {
  await Promise.all([...folders].map((folder) => folder.handle.close().catch(() => undefined)));
}
