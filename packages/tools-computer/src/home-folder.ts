import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '@core/runtime';

/** The agent's home as the computer tools see it: the folder as given and its real path (symlinks resolved). */
export interface HomeFolder {
  /** The home as given (normalised, absolute). */
  readonly root: string;
  /** The home's real path: every path the tools touch must resolve inside it. */
  readonly realRoot: string;
  /**
   * Whether folders are reached through their handles (`/proc/self/fd/N/…`, Linux). Without it (no `/proc`), each
   * part is still opened with `O_NOFOLLOW`, but by its full path: a folder swapped between two steps is not caught.
   */
  readonly procFd: boolean;
}

/**
 * Checks the home folder once, when the tools are created. `options.procFd` overrides the detection of
 * `/proc/self/fd` (tests of the fallback).
 * @throws UsageError (`home_invalid`) when `root` is not an absolute path to an existing folder.
 */
export function homeFolder(root: string, options: { procFd?: boolean } = {}): HomeFolder {
  if (typeof root !== 'string' || !path.isAbsolute(root)) {
    throw new UsageError('home_invalid', `The home must be an absolute path to a folder, got ${JSON.stringify(root)}.`);
  }
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch (cause) {
    throw new UsageError('home_invalid', `The home folder ${root} does not exist or cannot be read; create it before building the tools.`, { cause });
  }
  if (!statSync(realRoot).isDirectory()) {
    throw new UsageError('home_invalid', `The home ${root} is not a folder.`);
  }
  return Object.freeze({ root: path.normalize(root), realRoot, procFd: options.procFd ?? existsSync('/proc/self/fd') });
}

/** Whether `candidate` (absolute) is `root` or inside it, lexically. */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/** How a path inside the home is shown to the model: relative to the home, `.` for the home itself. */
export function displayPath(home: HomeFolder, absolute: string): string {
  const relative = path.relative(home.realRoot, absolute);
  return relative === '' ? '.' : relative;
}
