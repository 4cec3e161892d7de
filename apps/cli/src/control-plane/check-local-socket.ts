import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * Why the local socket at `socketPath` cannot be trusted, or `undefined` when it can: it must be a socket owned by
 * this user, and every folder above it owned by this user or root and writable by nobody else (group-writable only
 * for this user's primary group, as with user private groups; or sticky, as /tmp is: others may add files there but
 * not rename or remove ours), so no other user can have put it there or swap it before it is used. Node cannot ask a Unix socket for its peer's credentials (SO_PEERCRED), so the files' owners
 * stand in for them. Throws nothing; on a platform without user ids (Windows) there is nothing to check.
 */
export async function localSocketDistrust(socketPath: string): Promise<string | undefined> {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  let stats;
  try {
    stats = await lstat(socketPath);
  } catch (error) {
    return `it cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  if (!stats.isSocket()) return stats.isSymbolicLink() ? 'it is a symbolic link, not a socket' : 'it is not a socket';
  if (stats.uid !== uid) return `it belongs to user id ${stats.uid}, not to you (${uid})`;
  let folder: string;
  try {
    folder = await realpath(path.dirname(socketPath));
  } catch (error) {
    return `its folder cannot be resolved (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  for (let current = folder; ; current = path.dirname(current)) {
    const folderStats = await lstat(current);
    if (folderStats.uid !== uid && folderStats.uid !== 0) return `the folder ${current} belongs to user id ${folderStats.uid}, not to you or root`;
    // Group-writable is fine for this user's own primary group (user private groups, umask 002); sticky folders too.
    const writable = (folderStats.mode & 0o002) !== 0 || ((folderStats.mode & 0o020) !== 0 && folderStats.gid !== process.getgid?.());
    if (writable && (folderStats.mode & 0o1000) === 0) return `other users may write in the folder ${current} (mode ${(folderStats.mode & 0o777).toString(8)}) and so replace the socket`;
    if (path.dirname(current) === current) return undefined;
  }
}
