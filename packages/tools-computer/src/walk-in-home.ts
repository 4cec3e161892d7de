import { promises as fs } from 'node:fs';
import path from 'node:path';
import { lexicalTarget } from './lexical-target.js';
import { ComputerToolError, PathOutsideHomeError } from './errors.js';
import { closeFolders, entryPath, openFolderAt, openHomeFolder, readLinkAt, type HeldFolder } from './held-folder.js';
import { isInside, type HomeFolder } from './home-folder.js';

/** Symlinks followed in one path at most (as the kernel's own limit). */
export const MAX_SYMLINK_HOPS = 40;
/** Folders created (or found gone again) in one walk at most, so a folder removed as fast as it is made cannot loop. */
const MAX_FOLDER_ATTEMPTS = 256;

/** What `walkInHome` does at the end of the path. */
export interface WalkSteps<T> {
  /** Create missing folders on the way (`mkdir` relative to the held parent), for writes. */
  createFolders: boolean;
  /**
   * Carries out the operation on the last part of the path, relative to the held folder that holds it.
   * `throughLink`: the name came from a symlink's target (a write must not create it: a dangling link is not
   * written through). An `ELOOP` / `ENOTDIR` / `EEXIST` thrown for a symlink makes the walk follow it.
   */
  last: (parent: HeldFolder, name: string, throughLink: boolean) => Promise<T>;
  /** The operation when the path is a folder reached as a whole (the home, `x/..`): it takes over the handle. */
  self: (folder: HeldFolder) => Promise<T>;
}

interface Part {
  name: string;
  fromLink: boolean;
  /** Opened once more after an `ENOTDIR` that was no symlink (a swap in between). */
  retried?: boolean;
}

/**
 * Walks a requested path from the home, one part at a time, holding each folder open and opening the next part
 * relative to it with `O_NOFOLLOW` (through `/proc/self/fd/N/<part>` on Linux): checking and using are the same
 * operation, so a folder swapped for a symlink during the call is never followed out of the home.
 *
 * Symlinks inside the home are followed by the walk itself (their target read relative to the held folder,
 * resolved against the folders held, at most `MAX_SYMLINK_HOPS`), and only while they stay inside the home.
 * Errors name the path as the model gave it, never where a link points.
 *
 * @throws PathOutsideHomeError when the path, or a symlink on the way, leads out of the home.
 * @throws ComputerToolError `path_dangling_symlink` (a symlink to nothing on the way of a write, or at its end),
 *   `path_symlink_loop`, `path_changed` (a folder kept disappearing while being created), or the fs error.
 */
export async function walkInHome<T>(home: HomeFolder, requested: string, steps: WalkSteps<T>): Promise<T> {
  const pending: Part[] = partsInHome(home, lexicalTarget(home, requested)).map((name) => ({ name, fromLink: false }));
  const stack: HeldFolder[] = [await openHomeFolder(home.realRoot, home.procFd)];
  let hops = 0;
  let attempts = 0;
  const outside = (): PathOutsideHomeError => new PathOutsideHomeError(requested, 'a symlink on the way leads out of the home');
  const dangling = (): ComputerToolError =>
    new ComputerToolError('path_dangling_symlink', `"${requested}" goes through a symlink whose target does not exist; it is not followed.`);
  /** Replaces the symlink `name` of `parent` by its target in the pending parts; false when `name` is no symlink. */
  const follow = async (parent: HeldFolder, name: string): Promise<boolean> => {
    const target = await readLinkAt(parent, name);
    if (target === undefined) return false;
    hops += 1;
    if (hops > MAX_SYMLINK_HOPS) {
      throw new ComputerToolError('path_symlink_loop', `"${requested}" goes through more than ${MAX_SYMLINK_HOPS} symlinks; it is not followed.`);
    }
    let names: string[];
    if (path.isAbsolute(target)) {
      const absolute = path.normalize(target);
      const inHome = isInside(home.realRoot, absolute) ? home.realRoot : isInside(home.root, absolute) ? home.root : undefined;
      if (inHome === undefined) throw outside();
      names = partsInHome({ ...home, realRoot: inHome }, absolute);
      await closeFolders(stack.splice(1));
    } else {
      names = target.split('/');
    }
    pending.unshift(...names.map((linkName) => ({ name: linkName, fromLink: true })));
    return true;
  };
  try {
    for (;;) {
      const part = pending.shift();
      if (part === undefined) {
        const folder = stack.pop() as HeldFolder;
        return await steps.self(folder);
      }
      const { name, fromLink } = part;
      if (name === '' || name === '.') continue;
      const top = stack.at(-1) as HeldFolder;
      if (name === '..') {
        if (stack.length === 1) throw outside();
        await closeFolders(stack.splice(-1));
        continue;
      }
      if (pending.every((next) => next.name === '' || next.name === '.')) {
        pending.length = 0;
        try {
          return await steps.last(top, name, fromLink);
        } catch (error) {
          if (isLinkCode(error) && (await follow(top, name))) continue;
          throw error;
        }
      }
      try {
        stack.push(await openFolderAt(top, name));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' && steps.createFolders) {
          if (fromLink) throw dangling();
          attempts += 1;
          if (attempts > MAX_FOLDER_ATTEMPTS) throw new ComputerToolError('path_changed', `The folders of "${requested}" kept changing during the call.`);
          await fs.mkdir(entryPath(top, name), 0o755).catch((mkdirError: NodeJS.ErrnoException) => {
            if (mkdirError.code !== 'EEXIST') throw mkdirError;
          });
          pending.unshift(part);
          continue;
        }
        if (isLinkCode(error) && (await follow(top, name))) continue;
        // Not a folder, yet no symlink either when looked at again: a file, or a folder swapped meanwhile. Once more.
        if (code === 'ENOTDIR' && !part.retried) {
          pending.unshift({ ...part, retried: true });
          continue;
        }
        if (code === 'ENOENT' && fromLink) throw dangling();
        throw error;
      }
    }
  } finally {
    await closeFolders(stack);
  }
}

/** The parts of an absolute path inside `home.realRoot`, relative to it (none for the home itself). */
function partsInHome(home: Pick<HomeFolder, 'realRoot'>, absolute: string): string[] {
  const relative = path.relative(home.realRoot, absolute);
  return relative === '' ? [] : relative.split(path.sep);
}

function isLinkCode(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ELOOP' || code === 'ENOTDIR' || code === 'EEXIST';
}
