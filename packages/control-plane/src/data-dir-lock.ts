import { randomUUID } from 'node:crypto';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { ControlPlaneFailure } from '@core/control-plane-client';

/** A held lock on an embedded database folder. */
export interface DataDirLock {
  release(): Promise<void>;
}

/**
 * Takes the lock file `<dataDir>.lock` (holding this process id), so two processes never open one
 * PGlite folder at once (that would corrupt it). A lock left by a process that no longer runs is taken over.
 * @throws ControlPlaneFailure (`database_in_use`) when a running process holds it.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const lockPath = `${dataDir}.lock`;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    // Written whole under a name of its own, then linked into place: a process never sees the lock without its holder.
    const draftPath = `${lockPath}.${process.pid}-${randomUUID()}`;
    try {
      // 0600: the umask can only take bits away.
      await writeFile(draftPath, String(process.pid), { mode: 0o600 });
      await link(draftPath, lockPath);
      return { release: () => rm(lockPath, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const text = await readFile(lockPath, 'utf8').catch(() => undefined);
      // Let go of meanwhile: try again.
      if (text === undefined) continue;
      const holder = Number.parseInt(text, 10);
      if (Number.isInteger(holder) && holder > 0 && isRunning(holder)) {
        throw new ControlPlaneFailure(
          'database_in_use',
          `The embedded database ${dataDir} is in use by process ${holder}${holder === process.pid ? ' (this one)' : ''}. ` +
            'Stop that process, or use a PostgreSQL server (DATABASE_URL) to share one database between processes.',
        );
      }
      await rm(lockPath, { force: true });
    } finally {
      await rm(draftPath, { force: true });
    }
  }
  throw new ControlPlaneFailure('database_in_use', `Could not take the lock ${lockPath} on the embedded database ${dataDir}.`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
