import { execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH } from '../__fixtures__/spawn-cli.js';
import { stdioOutput } from './stdio-output.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-stdio-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

const noStream = (): NodeJS.WriteStream => expect.unreachable('a file is written to directly');

describe('stdioOutput', () => {
  it('writes to a file straight through the descriptor, in order, whole; not a terminal; flush calls back', async () => {
    const file = path.join(scratch, 'out.txt');
    const fd = openSync(file, 'w');
    try {
      const output = stdioOutput(fd, noStream);
      expect(output.isTTY).toBe(false);
      expect(output.columns).toBeUndefined();
      const big = 'x'.repeat(200_000);
      output.write('first é\n');
      output.write(big);
      output.write('\nlast\n');
      await new Promise<void>((resolve) => output.flush(resolve));
      expect(readFileSync(file, 'utf8')).toBe(`first é\n${big}\nlast\n`);
    } finally {
      closeSync(fd);
    }
  });

  it('anything that may be a terminal (a character device such as /dev/null) goes through the stream, made at first use', () => {
    const fd = openSync('/dev/null', 'w');
    try {
      const written: string[] = [];
      let made = 0;
      const stream = () => {
        made += 1;
        return { write: (text: string) => written.push(text) > 0, isTTY: true, columns: 91 } as unknown as NodeJS.WriteStream;
      };
      const output = stdioOutput(fd, stream);
      expect(made).toBe(0);
      output.write('hello');
      expect(output.isTTY).toBe(true);
      expect(output.columns).toBe(91);
      expect(written).toEqual(['hello']);
    } finally {
      closeSync(fd);
    }
  });

  it("looking at a pipe leaves Node's module resolution alone (symlinked packages still resolve to their real files)", async () => {
    const real = path.join(scratch, 'real', 'pkg');
    const app = path.join(scratch, 'app');
    await mkdir(real, { recursive: true });
    await mkdir(path.join(app, 'node_modules'), { recursive: true });
    await writeFile(path.join(real, 'package.json'), '{"name":"pkg","main":"index.js"}');
    await writeFile(path.join(real, 'index.js'), '');
    await writeFile(path.join(real, 'other.js'), '');
    await symlink(real, path.join(app, 'node_modules', 'pkg'));
    const require = createRequire(path.join(app, 'main.js'));
    expect(require.resolve('pkg')).toBe(path.join(real, 'index.js'));
    const fifo = path.join(scratch, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const fd = openSync(fifo, 'r+');
    try {
      expect(stdioOutput(fd, noStream).isTTY).toBe(false);
      expect(require.resolve('pkg/other.js')).toBe(path.join(real, 'other.js'));
    } finally {
      closeSync(fd);
    }
  });
});

describe('the CLI printing into a pipe', () => {
  it("prints through the descriptor without building Node's stream objects, and a reader that went away ends it quietly", async () => {
    const loaded = path.join(scratch, 'loaded.json');
    const preload = path.join(scratch, 'preload.cjs');
    await writeFile(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(process.moduleLoadList)));\n`);
    // Commands unsandboxed: `ankole tools` otherwise probes the sandbox with a child process, which loads `net` itself.
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch, ANKOLE_COMPILE_CACHE: 'off', ANKOLE_UNSANDBOXED_COMMANDS: '1' };
    const run = (closeEarly: boolean) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['-r', preload, CLI_PATH, 'tools'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        if (closeEarly) child.stdout.destroy();
        else child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    const whole = await run(false);
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stdout).toMatch(/^NAME +NAMESPACE/);
    expect(whole.stdout).toContain('todo_write');
    const modules = JSON.parse(readFileSync(loaded, 'utf8')) as string[];
    expect(modules).not.toContain('NativeModule net');
    expect(modules).not.toContain('NativeModule stream');
    const cut = await run(true);
    expect(cut).toMatchObject({ code: 0, stderr: '' });
  });
});
