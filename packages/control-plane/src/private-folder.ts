import { chmod, lstat, mkdir, opendir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Creates `folder` (and the missing folders above it) readable by its owner only, 0700, whatever the process umask;
 * an existing one this user owns is tightened to 0700 (another user's is left as it is).
 */
export async function makePrivateFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await tighten(folder, 0o700);
}

/**
 * Makes every folder under `folder` 0700 and every file 0600, those this user owns (symbolic links are not followed),
 * so files a library created with the process umask (PGlite's) are private too.
 */
export async function makeTreePrivate(folder: string): Promise<void> {
  const pending = [folder];
  while (pending.length > 0) {
    const current = pending.pop()!;
    await tighten(current, 0o700);
    for await (const entry of await opendir(current)) {
      const entryPath = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(entryPath);
      else if (entry.isFile()) await tighten(entryPath, 0o600);
    }
  }
}

/** Sets `mode` on a file or folder this process owns whose mode allows more (root tightens any). */
async function tighten(target: string, mode: number): Promise<void> {
  const stats = await lstat(target);
  if (stats.isSymbolicLink()) return;
  const uid = process.getuid?.();
  if (uid !== undefined && uid !== 0 && stats.uid !== uid) return;
  if ((stats.mode & 0o777 & ~mode) !== 0) await chmod(target, mode);
}
