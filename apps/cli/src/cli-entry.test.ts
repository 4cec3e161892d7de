import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

describe("the CLI's entry files", () => {
  it('the bin is dist/ankole.cjs (CommonJS, executable, with a shebang), and dist/cli.js still runs the same command', async () => {
    const { bin } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(bin).toEqual({ ankole: './dist/ankole.cjs' });
    for (const file of ['dist/ankole.cjs', 'dist/cli.js']) {
      expect((await readFile(path.join(root, file), 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true);
      expect((await stat(path.join(root, file))).mode & 0o111).not.toBe(0);
    }
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ANKOLE_COMPILE_CACHE: 'off' };
    const [viaBin, viaOldPath] = await Promise.all([
      run(process.execPath, [path.join(root, 'dist/ankole.cjs'), '--help'], { env }),
      run(process.execPath, [path.join(root, 'dist/cli.js'), '--help'], { env }),
    ]);
    expect(viaBin.stdout).toMatch(/^Usage: ankole <command>/);
    expect(viaOldPath.stdout).toBe(viaBin.stdout);
  });

  it("the repository README's alias runs the built command, as written from the repository root", async () => {
    const repository = path.resolve(root, '../..');
    const readme = await readFile(path.join(repository, 'README.md'), 'utf8');
    const alias = /`alias ankole="(.+?)"`/.exec(readme)?.[1];
    expect(alias).toBe('node $PWD/apps/cli/dist/ankole.cjs');
    const { stdout } = await run('sh', ['-c', `${alias!} --help`], { cwd: repository, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ANKOLE_COMPILE_CACHE: 'off' } });
    expect(stdout).toMatch(/^Usage: ankole <command>/);
  });

  it("the README's `npm link` in apps/cli puts `ankole` on the PATH; `ankole help run` prints run's help", async () => {
    const repository = path.resolve(root, '../..');
    const readme = await readFile(path.join(repository, 'README.md'), 'utf8');
    expect(readme).toContain('(cd apps/cli && npm link)');
    const prefix = await mkdtemp(path.join(tmpdir(), 'ankole-npm-link-'));
    try {
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: prefix, npm_config_prefix: prefix, npm_config_update_notifier: 'false', ANKOLE_COMPILE_CACHE: 'off' };
      await run('sh', ['-c', 'cd apps/cli && npm link'], { cwd: repository, env });
      const { stdout } = await run(path.join(prefix, 'bin', 'ankole'), ['help', 'run'], { env });
      expect(stdout).toMatch(/^Usage: ankole run \[options\] "<prompt>"\n/);
    } finally {
      await rm(prefix, { recursive: true, force: true });
    }
  }, 60_000);
});
