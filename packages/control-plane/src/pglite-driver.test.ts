import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pgBossDatabase } from './turn-queue.js';
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
    // pg-boss's adapter: parameterless multi-statement SQL goes through exec, parameters through query.
    const boss = pgBossDatabase(reopened);
    const multi = (await boss.executeSql('CREATE TABLE t (n int); INSERT INTO t VALUES (1), (2); SELECT count(*)::int AS n FROM t', [])) as unknown as { rows: unknown[] };
    expect(multi.rows).toEqual([{ n: 2 }]);
    const withParams = (await boss.executeSql('SELECT n FROM t WHERE n = $1', [2])) as unknown as { rows: unknown[] };
    expect(withParams.rows).toEqual([{ n: 2 }]);
    await reopened.close();
  }, 120_000);
});
