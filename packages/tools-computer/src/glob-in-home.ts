import path from 'node:path';
import { glob } from 'tinyglobby';
import type { ComputerToolContext } from './computer-context.js';
import { resolveInHome } from './confine-path.js';
import { ComputerToolError, PathOutsideHomeError } from './errors.js';
import { fsErrorToToolError } from './fs-error-message.js';
import { displayPath, isInside } from './home-folder.js';

/** Folders skipped unless the model asks for them (`include_ignored`). */
export const IGNORED_FOLDERS: readonly string[] = ['node_modules', '.git'];

/** What `globInHome` needs. */
export interface GlobInHomeOptions {
  /** The folder to search from, as the model gave it (default the home). */
  folder?: string | undefined;
  pattern: string;
  onlyFiles: boolean;
  includeIgnored: boolean;
  signal?: AbortSignal | undefined;
}

/** Entries found by `globInHome`: real absolute paths, sorted, plus the folder searched. */
export interface GlobInHomeResult {
  folder: string;
  /** Absolute paths inside the home; folders end with `/`. */
  entries: string[];
}

/**
 * Finds entries matching a glob under a folder of the home. Symlinked folders are not followed, the
 * pattern may not climb out (`..`, absolute patterns), and `node_modules` / `.git` are skipped unless asked.
 * @throws ComputerToolError for a bad pattern or folder; PathOutsideHomeError when the folder is outside.
 */
export async function globInHome(context: ComputerToolContext, options: GlobInHomeOptions): Promise<GlobInHomeResult> {
  const { home } = context;
  const pattern = options.pattern.trim() === '' ? '**/*' : options.pattern.trim();
  if (path.isAbsolute(pattern) || pattern.split('/').includes('..')) {
    throw new PathOutsideHomeError(pattern, 'a glob pattern may not be absolute or contain ".."; give the folder as path and a relative pattern');
  }
  const requested = options.folder ?? '.';
  const folder = await resolveInHome(home, requested);
  const stats = await import('node:fs/promises').then((fs) => fs.stat(folder)).catch((error: unknown) => {
    throw fsErrorToToolError(error, displayPath(home, folder));
  });
  if (!stats.isDirectory()) throw new ComputerToolError('path_not_folder', `${displayPath(home, folder)} is a file, not a folder.`);
  const found = await glob(pattern, {
    cwd: folder,
    dot: true,
    followSymbolicLinks: false,
    onlyFiles: options.onlyFiles,
    expandDirectories: false,
    ignore: options.includeIgnored ? [] : IGNORED_FOLDERS.flatMap((name) => [`**/${name}/**`, `**/${name}`]),
    signal: options.signal,
  });
  const entries = found
    .map((entry) => {
      const isFolder = entry.endsWith('/');
      const absolute = path.resolve(folder, entry);
      return isFolder ? `${absolute}/` : absolute;
    })
    .filter((absolute) => isInside(home.realRoot, absolute.replace(/\/$/, '')))
    .sort();
  return { folder, entries };
}
