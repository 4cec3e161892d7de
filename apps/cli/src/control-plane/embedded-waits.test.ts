import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliProcess } from '../__fixtures__/spawn-cli.js';

// Commands started together on one embedded database folder: each waits for the one holding it, then goes on.
describe('ankole commands at once on one embedded database', () => {
  const homes: string[] = [];
  afterEach(async () => {
    for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
  });

  async function freshHome(): Promise<Record<string, string>> {
    const home = await mkdtemp(path.join(tmpdir(), 'ankole-embedded-waits-'));
    homes.push(home);
    return { HOME: home, XDG_DATA_HOME: path.join(home, 'data'), XDG_CONFIG_HOME: path.join(home, 'config') };
  }

  it.each([2, 5])('%i `jobs list` on a fresh folder all succeed', async (count) => {
    const env = await freshHome();
    const results = await Promise.all(Array.from({ length: count }, () => runCliProcess(['jobs', 'list'], env, 150_000)));
    expect(results.map((result) => [result.code, result.stderr.includes('in use by process')])).toEqual(results.map(() => [0, false]));
  }, 180_000);

  it('three `jobs start` on a fresh folder all queue their job', async () => {
    const env = await freshHome();
    const results = await Promise.all([1, 2, 3].map((index) => runCliProcess(['jobs', 'start', `task ${index}`], env, 150_000)));
    expect(results.map((result) => result.code)).toEqual([0, 0, 0]);
    const listed = await runCliProcess(['jobs', 'list', '--json'], env, 60_000);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as unknown[]).length).toBe(3);
  }, 240_000);
});
