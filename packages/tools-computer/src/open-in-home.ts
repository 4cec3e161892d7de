import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { ComputerToolError } from './errors.js';
import { openFileAt, openFolderAt, readLinkAt, closeFolders, type HeldFolder } from './held-folder.js';
import type { HomeFolder } from './home-folder.js';
import { walkInHome } from './walk-in-home.js';

/** How `openFileInHome` opens a file: read it, read and change it (edit), or write it (created when missing). */
export type FileAccess = 'read' | 'edit' | 'write';

/** A file of the home, open. */
export interface OpenedFile {
  handle: FileHandle;
  /** The file's path relative to the home (symlinks inside the home resolved), as the tools show it. */
  shown: string;
  /** Whether `write` created it. */
  created: boolean;
}

const FLAGS: Record<FileAccess, number> = {
  read: constants.O_RDONLY,
  edit: constants.O_RDWR,
  write: constants.O_WRONLY,
};

/**
 * Opens a file of the home through `walkInHome`: every part is opened relative to its held folder without
 * following a symlink out of the home, the file itself with `O_NOFOLLOW | O_NONBLOCK`. `write` creates the
 * missing parent folders and the file (`O_CREAT | O_EXCL`, mode 0644) unless it exists; it never creates the
 * target of a dangling symlink.
 * @throws PathOutsideHomeError / ComputerToolError as `walkInHome`; ComputerToolError (`path_is_folder`) for the
 *   home itself; the fs error otherwise (`ENOENT`, `EISDIR`, …).
 */
export function openFileInHome(home: HomeFolder, requested: string, access: FileAccess): Promise<OpenedFile> {
  return walkInHome<OpenedFile>(home, requested, {
    createFolders: access === 'write',
    last: async (parent, name, throughLink) => {
      const shown = shownPath(parent, name);
      if (access === 'write' && !throughLink) {
        try {
          return { handle: await openFileAt(parent, name, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644), shown, created: true };
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
      }
      try {
        return { handle: await openFileAt(parent, name, FLAGS[access]), shown, created: false };
      } catch (error) {
        if (access === 'write' && (error as NodeJS.ErrnoException).code === 'ENOENT') {
          if (throughLink) {
            throw new ComputerToolError('path_dangling_symlink', `"${requested}" is a symlink whose target does not exist; it is not written through.`);
          }
          throw new ComputerToolError('path_changed', `"${requested}" was removed while it was being opened; try again.`, { cause: error });
        }
        throw error;
      }
    },
    self: async (folder) => {
      await closeFolders([folder]);
      throw new ComputerToolError('path_is_folder', `"${requested}" is a folder, not a file. Use list_files to see what it holds.`);
    },
  });
}

/**
 * Opens a folder of the home through `walkInHome` and hands over its handle (the caller closes it with
 * `closeFolders`); entries are then read and opened relative to it.
 * @throws ComputerToolError (`path_not_folder`) when it is a file; otherwise as `walkInHome`.
 */
export function openFolderInHome(home: HomeFolder, requested: string): Promise<HeldFolder> {
  return walkInHome<HeldFolder>(home, requested, {
    createFolders: false,
    last: async (parent, name) => {
      try {
        return await openFolderAt(parent, name);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOTDIR' && (await readLinkAt(parent, name)) === undefined) {
          throw new ComputerToolError('path_not_folder', `${shownPath(parent, name)} is a file, not a folder.`);
        }
        throw error;
      }
    },
    self: async (folder) => folder,
  });
}

/** The path relative to the home of the entry `name` of a held folder. */
export function shownPath(parent: HeldFolder, name: string): string {
  return parent.relative === '' ? name : `${parent.relative}/${name}`;
}
