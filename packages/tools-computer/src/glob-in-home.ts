import type { Dirent } from 'node:fs';
import type { ComputerToolContext } from './computer-context.js';
import { PathOutsideHomeError } from './errors.js';
import { compileGlob, type GlobState } from './glob-pattern.js';
import { closeFolders, openFolderAt, readFolder, type HeldFolder } from './held-folder.js';
import { openFolderInHome, shownPath } from './open-in-home.js';

/** Folders skipped unless the model asks for them (`include_ignored`). */
export const IGNORED_FOLDERS: readonly string[] = ['node_modules', '.git'];

/** Entries handed over at once (the files of one chunk can be read in parallel). */
const CHUNK_ENTRIES = 16;

/** What `globInHome` needs. */
export interface GlobInHomeOptions {
  /** The folder to search from, as the model gave it (default the home). */
  folder?: string | undefined;
  pattern: string;
  onlyFiles: boolean;
  includeIgnored: boolean;
  signal?: AbortSignal | undefined;
}

/** An entry found by `globInHome`, with the folder holding it still open. */
export interface GlobEntry {
  /** The folder holding it (open while the chunk is handled): open the entry relative to it. */
  parent: HeldFolder;
  name: string;
  /** Its path relative to the home. */
  shown: string;
  isFolder: boolean;
}

/**
 * Walks a folder of the home for entries matching a glob, holding each folder open and opening subfolders
 * relative to it with `O_NOFOLLOW`: symlinks are listed but never followed, and a folder swapped for a symlink
 * during the walk is skipped, so nothing outside the home is ever listed. Entries come in chunks, in sorted path
 * order, while their folder is open; `onEntries` returns `false` to stop. The pattern may not climb out
 * (`..`, absolute patterns); `node_modules` / `.git` are skipped unless asked.
 * @returns the searched folder, relative to the home (`.` for the home).
 * @throws ComputerToolError for a bad pattern or folder; PathOutsideHomeError when the folder is outside.
 */
export async function globInHome(
  context: ComputerToolContext,
  options: GlobInHomeOptions,
  onEntries: (entries: GlobEntry[]) => Promise<boolean | void> | boolean | void,
): Promise<{ folder: string }> {
  const pattern = options.pattern.trim() === '' ? '**/*' : options.pattern.trim();
  if (pattern.startsWith('/') || pattern.split('/').includes('..')) {
    throw new PathOutsideHomeError(pattern, 'a glob pattern may not be absolute or contain ".."; give the folder as path and a relative pattern');
  }
  const glob = compileGlob(pattern);
  const root = await openFolderInHome(context.home, options.folder ?? '.');
  const wanted = (isFolder: boolean): boolean => (isFolder ? !options.onlyFiles : !glob.onlyFolders);
  let stopped = false;

  const walk = async (folder: HeldFolder, states: GlobState): Promise<void> => {
    const dirents = await readFolder(folder).catch(() => [] as Dirent[]);
    const children = dirents
      .filter((dirent) => options.includeIgnored || !IGNORED_FOLDERS.includes(dirent.name))
      // Folders sort as `name/`, so a walk in this order yields the entries in the order of their full paths.
      .map((dirent) => ({ dirent, key: dirent.isDirectory() ? `${dirent.name}/` : dirent.name }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    let chunk: GlobEntry[] = [];
    const flush = async (): Promise<void> => {
      if (chunk.length === 0 || stopped) return;
      const entries = chunk;
      chunk = [];
      if ((await onEntries(entries)) === false) stopped = true;
    };
    for (const { dirent } of children) {
      if (stopped || options.signal?.aborted === true) break;
      const next = glob.step(states, dirent.name);
      if (next.length === 0) continue;
      const isFolder = dirent.isDirectory() || (isUnknownType(dirent) && (await isFolderAt(folder, dirent.name)));
      if (glob.matches(next) && wanted(isFolder)) {
        chunk.push({ parent: folder, name: dirent.name, shown: shownPath(folder, dirent.name), isFolder });
        if (chunk.length >= CHUNK_ENTRIES) await flush();
      }
      if (!isFolder || !glob.descend(next)) continue;
      await flush();
      // Opened relative to the held folder with O_NOFOLLOW: a symlink swapped in since the listing is skipped.
      const child = await openFolderAt(folder, dirent.name).catch(() => undefined);
      if (child === undefined) continue;
      try {
        await walk(child, next);
      } finally {
        await closeFolders([child]);
      }
    }
    await flush();
  };

  try {
    await walk(root, glob.start);
  } finally {
    await closeFolders([root]);
  }
  return { folder: root.relative === '' ? '.' : root.relative };
}

function isUnknownType(dirent: Dirent): boolean {
  return !(dirent.isFile() || dirent.isDirectory() || dirent.isSymbolicLink() || dirent.isFIFO() || dirent.isSocket() || dirent.isBlockDevice() || dirent.isCharacterDevice());
}

async function isFolderAt(folder: HeldFolder, name: string): Promise<boolean> {
  const child = await openFolderAt(folder, name).catch(() => undefined);
  if (child === undefined) return false;
  await closeFolders([child]);
  return true;
}
