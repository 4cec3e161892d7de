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
