import { chmod, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPGliteDriver } from './pglite-driver.js';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

describe('createPGliteDriver', () => {
  it('refuses a data folder another live process holds, and takes over a stale lock', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'ankole-lock-'));
    folders.push(parent);
    const dataDir = path.join(parent, 'db');
    const driver = await createPGliteDriver({ dataDir });
    try {
      await expect(createPGliteDriver({ dataDir })).rejects.toMatchObject({ code: 'database_in_use' });
    } finally {
      await driver.close();
    }
    // A lock left by a process that no longer runs (an unused pid).
    await writeFile(`${dataDir}.lock`, '4194303');
    const reopened = await createPGliteDriver({ dataDir });
    expect((await reopened.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    // Parameterless multi-statement SQL (the migrations) goes through exec, parameters through query.
    await reopened.exec('CREATE TABLE t (n int); INSERT INTO t VALUES (1), (2);');
    expect((await reopened.query<{ n: number }>('SELECT n FROM t WHERE n = $1', [2])).rows).toEqual([{ n: 2 }]);
    await reopened.close();
  }, 120_000);
});

describe('createPGliteDriver: private files', () => {
  it('makes the data folder 0700, its files 0600 and the lock 0600 under umask 000, and tightens an existing folder', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'ankole-modes-'));
    folders.push(parent);
    const previous = process.umask(0);
    let driver: Awaited<ReturnType<typeof createPGliteDriver>> | undefined;
    try {
      const dataDir = path.join(parent, 'made', 'db');
      driver = await createPGliteDriver({ dataDir });
      await driver.query('CREATE TABLE secret (text text)');
      await driver.query("INSERT INTO secret VALUES ('a private prompt')");
      const modes = await treeModes(dataDir);
      expect(modes.folders.size, 'folders').toBeGreaterThan(1);
      expect(modes.files.size, 'files').toBeGreaterThan(10);
      expect([...modes.folders.values()].filter((mode) => mode !== 0o700)).toEqual([]);
      expect([...modes.files.values()].filter((mode) => mode !== 0o600)).toEqual([]);
      expect((await stat(path.join(parent, 'made'))).mode & 0o777).toBe(0o700);
      expect((await stat(`${dataDir}.lock`)).mode & 0o777).toBe(0o600);
      await driver.close();
      driver = undefined;
      // A folder made before (0755, a 0644 file) is tightened when opened.
      await chmod(dataDir, 0o755);
      await chmod(path.join(dataDir, 'PG_VERSION'), 0o644);
      driver = await createPGliteDriver({ dataDir });
      expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
      expect((await stat(path.join(dataDir, 'PG_VERSION'))).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(previous);
      await driver?.close();
    }
  }, 120_000);
});

async function treeModes(folder: string): Promise<{ folders: Map<string, number>; files: Map<string, number> }> {
  const folderModes = new Map<string, number>();
  const fileModes = new Map<string, number>();
  const pending = [folder];
  while (pending.length > 0) {
    const current = pending.pop()!;
    folderModes.set(current, (await stat(current)).mode & 0o777);
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const entryPath = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(entryPath);
      else if (entry.isFile()) fileModes.set(entryPath, (await stat(entryPath)).mode & 0o777);
    }
  }
  return { folders: folderModes, files: fileModes };
}
