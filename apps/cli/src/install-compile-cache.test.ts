import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess } from './__fixtures__/spawn-cli.js';
import { compileCacheFolder } from './install-compile-cache.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-compile-cache-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const versionFolder = `${process.version}-${process.arch}`;

async function cacheFiles(folder: string): Promise<Map<string, number>> {
  const files = new Map<string, number>();
  for (const name of await readdir(folder)) files.set(name, (await stat(path.join(folder, name))).mtimeMs);
  return files;
}

describe('compileCacheFolder', () => {
  it('follows ANKOLE_COMPILE_CACHE, then XDG_CACHE_HOME, then ~/.cache; "off" turns it off', () => {
    expect(compileCacheFolder({ ANKOLE_COMPILE_CACHE: '/tmp/cc', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/tmp/cc');
    expect(compileCacheFolder({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/x/ankole/compile-cache');
    expect(compileCacheFolder({ XDG_CACHE_HOME: 'relative', HOME: '/h' })).toBe('/h/.cache/ankole/compile-cache');
    expect(compileCacheFolder({ HOME: '/h' })).toBe('/h/.cache/ankole/compile-cache');
    for (const off of ['off', 'OFF', '0', 'false', 'no']) expect(compileCacheFolder({ ANKOLE_COMPILE_CACHE: off, HOME: '/h' })).toBeUndefined();
  });
});

describe('the CLI through its compile cache', () => {
  it('writes the code of each file it loaded, and a later start uses it without writing again', async () => {
    const cache = path.join(scratch, 'first');
    const env = { HOME: scratch, ANKOLE_COMPILE_CACHE: cache };
    const first = await runCliProcess(['--help'], env);
    expect(first.code, first.stderr).toBe(0);
    const folder = path.join(cache, versionFolder, 'default');
    const written = await cacheFiles(folder);
    expect([...written.keys()].some((name) => /^cli-main\.cjs\.\d+-\d+\.v8$/.test(name))).toBe(true);
    expect([...written.keys()].every((name) => name.endsWith('.v8'))).toBe(true);

    const second = await runCliProcess(['--help'], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    // A file whose cached code V8 refused (or that had none) is written again when the process exits.
    expect(await cacheFiles(folder)).toEqual(written);
  }, 60_000);

  it('keeps one cache per command', async () => {
    const cache = path.join(scratch, 'per-command');
    const home = path.join(scratch, 'home');
    await mkdir(home);
    const result = await runCliProcess(['tools', '--home', home], { HOME: scratch, ANKOLE_COMPILE_CACHE: cache });
    expect(result.code, result.stderr).toBe(0);
    expect(await readdir(path.join(cache, versionFolder))).toEqual(['tools']);
    expect((await readdir(path.join(cache, versionFolder, 'tools'))).length).toBeGreaterThan(3);
  }, 60_000);

  it('ignores damaged cached code and replaces it, and drops the code of files that are gone', async () => {
    const cache = path.join(scratch, 'damaged');
    const env = { HOME: scratch, ANKOLE_COMPILE_CACHE: cache };
    const clean = await runCliProcess(['--help'], env);
    expect(clean.code, clean.stderr).toBe(0);
    const folder = path.join(cache, versionFolder, 'default');
    const damaged = [...(await cacheFiles(folder)).keys()].filter((name) => name.startsWith('cli-main.cjs.'));
    expect(damaged).toHaveLength(1);
    const file = path.join(folder, damaged[0]!);
    await writeFile(file, Buffer.alloc(4096, 7));
    // Code of a file that is no longer there (an earlier build's chunk) goes when the cache is next written.
    const stale = path.join(folder, 'cli-gone-Ab12Cd34.cjs.1234-5678.v8');
    await writeFile(stale, 'stale');

    const again = await runCliProcess(['--help'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(clean.stdout);
    expect((await readFile(file)).equals(Buffer.alloc(4096, 7))).toBe(false);
    await expect(stat(stale)).rejects.toMatchObject({ code: 'ENOENT' });
  }, 60_000);

  it('imports packages at run time (mcporter) from restored code as from fresh code', async () => {
    const cache = path.join(scratch, 'imports');
    const home = path.join(scratch, 'imports-home');
    await mkdir(home);
    const config = path.join(scratch, 'mcporter.json');
    await writeFile(config, JSON.stringify({ mcpServers: { files: { bogus: true } } }));
    const args = ['tools', '--home', home, '--mcp-config', config];
    const env = { HOME: scratch, ANKOLE_COMPILE_CACHE: cache };
    // The config is checked by mcporter, imported when first needed: the second run's code comes from the cache.
    const first = await runCliProcess(args, env);
    const second = await runCliProcess(args, env);
    for (const run of [first, second]) {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/^ankole: The MCP config \S+ is not a valid mcporter config \(Server 'files' is missing/);
    }
    expect(second.stderr).toBe(first.stderr);
  }, 60_000);

  it('runs as usual when the cache is off or cannot be written', async () => {
    const xdg = path.join(scratch, 'xdg');
    const off = await runCliProcess(['--help'], { HOME: scratch, XDG_CACHE_HOME: xdg, ANKOLE_COMPILE_CACHE: 'off' });
    expect(off.code, off.stderr).toBe(0);
    await expect(stat(xdg)).rejects.toMatchObject({ code: 'ENOENT' });

    const blocker = path.join(scratch, 'a-file');
    await writeFile(blocker, 'not a folder');
    const blocked = await runCliProcess(['--help'], { HOME: scratch, ANKOLE_COMPILE_CACHE: path.join(blocker, 'cache') });
    expect(blocked.code, blocked.stderr).toBe(0);
    expect(blocked.stdout).toBe(off.stdout);
    expect(blocked.stderr).toBe('');
  }, 60_000);
});
