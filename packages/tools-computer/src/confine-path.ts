import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { ComputerToolError, PathOutsideHomeError } from './errors.js';
import { isInside, type HomeFolder } from './home-folder.js';

/**
 * The lexical target of a requested path: relative to the home, absolute inside it, or `~/...`.
 * Mapped onto the home's real path. Nothing is read from disk.
 * @throws ComputerToolError (`path_invalid`) for an empty path or one holding a NUL byte.
 * @throws PathOutsideHomeError when the path leaves the home lexically (`..`, an absolute path elsewhere).
 */
export function lexicalTarget(home: HomeFolder, requested: string): string {
  if (typeof requested !== 'string' || requested.trim() === '') {
    throw new ComputerToolError('path_invalid', 'The path is empty. Give a path relative to the home folder, like "notes.md".');
  }
  if (requested.includes('\0')) throw new ComputerToolError('path_invalid', `The path ${JSON.stringify(requested)} holds a NUL byte.`);
  let expanded = requested;
  if (expanded === '~') expanded = home.root;
  else if (expanded.startsWith('~/')) expanded = path.join(home.root, expanded.slice(2));
  const absolute = path.isAbsolute(expanded) ? path.normalize(expanded) : path.resolve(home.realRoot, expanded);
  if (isInside(home.realRoot, absolute)) return absolute;
  if (isInside(home.root, absolute)) return path.join(home.realRoot, path.relative(home.root, absolute));
  throw new PathOutsideHomeError(requested, path.isAbsolute(expanded) ? 'it is an absolute path elsewhere' : 'it climbs out of the home with ".."');
}

/**
 * Resolves a requested path to its real location inside the home: symlinks of every existing part are
 * followed (the real path of the nearest existing ancestor, plus the parts that do not exist yet).
 * @throws PathOutsideHomeError when the path, or a symlink on the way, leads out of the home.
 * @throws ComputerToolError (`path_dangling_symlink`) when a part of the path is a symlink to nothing.
 */
export async function resolveInHome(home: HomeFolder, requested: string): Promise<string> {
  const target = lexicalTarget(home, requested);
  let existing = target;
  const missing: string[] = [];
  for (;;) {
    try {
      const real = await fs.realpath(existing);
      if (!isInside(home.realRoot, real)) {
        throw new PathOutsideHomeError(requested, `a symlink on the way leads to ${real}`);
      }
      return path.join(real, ...missing);
    } catch (error) {
      if (error instanceof PathOutsideHomeError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      const stats = await fs.lstat(existing).catch(() => undefined);
      if (stats?.isSymbolicLink()) {
        throw new ComputerToolError(
          'path_dangling_symlink',
          `"${requested}" goes through the symlink ${path.relative(home.realRoot, existing) || '.'}, whose target does not exist; it is not followed.`,
        );
      }
      const parent = path.dirname(existing);
      if (parent === existing) throw error;
      missing.unshift(path.basename(existing));
      existing = parent;
    }
  }
}

/**
 * Prepares a write: resolves the path, creates its missing parent folders, and checks again (after
 * creating them) that the parent's real path is inside the home.
 * @returns the real path to open for writing.
 * @throws PathOutsideHomeError / ComputerToolError as `resolveInHome`, or when the parent moved out meanwhile.
 */
export async function prepareWrite(home: HomeFolder, requested: string): Promise<string> {
  const target = await resolveInHome(home, requested);
  if (target === home.realRoot) throw new ComputerToolError('path_is_folder', 'The home folder itself cannot be written as a file.');
  const parent = path.dirname(target);
  await fs.mkdir(parent, { recursive: true });
  const realParent = await fs.realpath(parent);
  if (!isInside(home.realRoot, realParent)) {
    throw new PathOutsideHomeError(requested, `its folder now leads to ${realParent}`);
  }
  return path.join(realParent, path.basename(target));
}

/**
 * Opens a resolved path without following a symlink in its last part (`O_NOFOLLOW`) and without blocking
 * on a FIFO (`O_NONBLOCK`), then checks that
 * the opened file really is inside the home (through `/proc/self/fd` on Linux, by real path elsewhere),
 * so a symlink swapped in during the call is caught before anything is read or written.
 * @throws PathOutsideHomeError when the opened file is outside the home; the handle is closed.
 * @throws ComputerToolError (`path_changed`) when the last part became a symlink meanwhile.
 */
export async function openInHome(home: HomeFolder, realPath: string, flags: number, requested: string, mode?: number): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer (it is then refused as not a regular file).
    handle = await fs.open(realPath, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new ComputerToolError('path_changed', `"${requested}" became a symlink during the call; it is not followed.`, { cause: error });
    }
    throw error;
  }
  try {
    const opened = await openedPath(handle, realPath);
    if (!isInside(home.realRoot, opened)) throw new PathOutsideHomeError(requested, `it was opened at ${opened}`);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function openedPath(handle: FileHandle, realPath: string): Promise<string> {
  try {
    return (await fs.readlink(`/proc/self/fd/${handle.fd}`)).replace(/ \(deleted\)$/, '');
  } catch {
    return fs.realpath(realPath);
  }
}
