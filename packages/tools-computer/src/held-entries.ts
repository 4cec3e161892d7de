import { randomUUID } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { closeFolders, entryPath, openFileAt, openFolderAt, readFolder, type HeldFolder } from './held-folder.js';

/*
 * Changes to entries of a held folder (see held-folder.ts), none of which follows a symlink: what skills
 * projection does in the home. A symlink met on the way is an entry like any other (removed, replaced), never a
 * way out of the home.
 */

/** Attempts at making a folder that keeps being removed or replaced. */
const MAX_ATTEMPTS = 16;

/**
 * The folder `name` of a held folder, created when missing; anything else there (a file, a symlink) is removed
 * first. The caller closes it.
 */
export async function ensureFolderAt(parent: HeldFolder, name: string): Promise<HeldFolder> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await openFolderAt(parent, name);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt >= MAX_ATTEMPTS || (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'ELOOP')) throw error;
      if (code !== 'ENOENT') await removeAt(parent, name);
      await fs.mkdir(entryPath(parent, name), 0o755).catch((mkdirError: NodeJS.ErrnoException) => {
        if (mkdirError.code !== 'EEXIST') throw mkdirError;
      });
    }
  }
}

/** Removes the entry `name` of a held folder, a folder with everything in it; symlinks are removed, not followed. Missing is fine. */
export async function removeAt(parent: HeldFolder, name: string): Promise<void> {
  try {
    await fs.unlink(entryPath(parent, name));
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code !== 'EISDIR' && code !== 'EPERM') throw error;
  }
  let folder: HeldFolder;
  try {
    folder = await openFolderAt(parent, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    for (const entry of await readFolder(folder)) await removeAt(folder, entry.name);
  } finally {
    await closeFolders([folder]);
  }
  await fs.rmdir(entryPath(parent, name)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

/**
 * Copies a folder from outside the home (a skill's folder: trusted, its symlinks followed) to the new entry `name`
 * of a held folder: every folder is made and opened relative to its held parent, every file created with
 * `O_CREAT | O_EXCL | O_NOFOLLOW`, keeping its permission bits.
 * @throws the fs error; `EEXIST` when `name` exists.
 */
export async function copyFolderInto(source: string, parent: HeldFolder, name: string): Promise<void> {
  const mode = (await fs.stat(source)).mode & 0o777;
  await fs.mkdir(entryPath(parent, name), mode | 0o700);
  const folder = await openFolderAt(parent, name);
  try {
    for (const entry of await fs.readdir(source)) {
      const from = path.join(source, entry);
      const stats = await fs.stat(from);
      if (stats.isDirectory()) {
        await copyFolderInto(from, folder, entry);
      } else if (stats.isFile()) {
        const handle = await openFileAt(folder, entry, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, stats.mode & 0o777);
        try {
          await handle.writeFile(await fs.readFile(from));
        } finally {
          await handle.close();
        }
      }
    }
  } finally {
    await closeFolders([folder]);
  }
}

/** The text of the file `name` of a held folder (a symlink is not followed: `ELOOP`). */
export async function readTextAt(parent: HeldFolder, name: string): Promise<string> {
  const handle = await openFileAt(parent, name, constants.O_RDONLY);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Replaces the file `name` of a held folder atomically: a new temporary entry (`O_CREAT | O_EXCL | O_NOFOLLOW`) is
 * written, then renamed over `name` (a symlink there is replaced, not followed).
 */
export async function writeFileAtomicAt(parent: HeldFolder, name: string, text: string): Promise<void> {
  const temporary = `${name}.${randomUUID()}.tmp`;
  const handle = await openFileAt(parent, temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(entryPath(parent, temporary), entryPath(parent, name));
  } catch (error) {
    await fs.unlink(entryPath(parent, temporary)).catch(() => undefined);
    throw error;
  }
}

/** Renames the entry `from` of a held folder to `to` in the same folder (symlinks are moved, not followed). */
export function renameAt(folder: HeldFolder, from: string, to: string): Promise<void> {
  return fs.rename(entryPath(folder, from), entryPath(folder, to));
}
