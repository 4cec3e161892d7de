import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// scripts/relay-progress.mjs (the progress `npm run demo` shows during its first install and build) as a real process,
// relaying a fake command that prints what pnpm and turbo print.
const RELAY = fileURLToPath(new URL('../../../../scripts/relay-progress.mjs', import.meta.url));

const INSTALL_AND_BUILD = [
  'Lockfile is up to date, resolution step is skipped',
  'Packages: +850',
  ...Array.from({ length: 3000 }, (_, index) => `Progress: resolved ${index}, reused ${index}, downloaded 0, added ${index}`),
  '',
  '   \u001b[1m• Running build in 2 packages\u001b[0m',
  '@core/runtime:build: $ tsup',
  '@core/runtime:build: ESM Build success in 200ms',
  '@core/cli:build: $ tsup',
  '@core/cli:build: ESM Build success in 900ms',
  ' Tasks:    2 successful, 2 total',
];

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-relay-progress-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** A fake command: prints `lines`, waits for the file `waitFor` after the first line if given, then exits with `code`. */
async function fakeCommand(name: string, lines: string[], code = 0, waitFor?: string): Promise<string> {
  const file = path.join(scratch, `${name}.mjs`);
  const wait = waitFor === undefined ? '' : `while (!existsSync(${JSON.stringify(waitFor)})) await new Promise((resolve) => setTimeout(resolve, 20));`;
  await writeFile(
    file,
    `import { existsSync } from 'node:fs';\nconst lines = ${JSON.stringify(lines)};\nprocess.stdout.write(lines[0] + '\\n');\n${wait}\nfor (const line of lines.slice(1)) process.stdout.write(line + '\\n');\nprocess.exitCode = ${code};\n`,
  );
  return file;
}

/** Runs the relay around `node command`; `onStderr` hears what it printed so far. */
function relay(command: string, options: string[], onStderr?: (stderr: string) => void): Promise<{ code: number | null; stdout: string; stderr: string; log: string }> {
  const log = path.join(scratch, `${path.basename(command)}.log`);
  const child = spawn(process.execPath, [RELAY, '--log', log, ...options, '--', process.execPath, command], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    onStderr?.(stderr);
  });
  return new Promise((resolve) => {
    child.on('close', async (code) => resolve({ code, stdout, stderr, log: await readFile(log, 'utf8') }));
  });
}

describe('scripts/relay-progress.mjs', () => {
  it('shows a cold install and build as a few lines (one per package to build), keeping the whole output in the log', async () => {
    const command = await fakeCommand('install-and-build', INSTALL_AND_BUILD);
    // An hour between counts: none of the 3,000 "Progress:" lines gets through after the first milestone.
    const relayed = await relay(command, ['--no-tty', '--every-ms', '3600000']);
    expect(relayed.code).toBe(0);
    expect(relayed.stdout).toBe('');
    expect(relayed.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^ {6}\[\d+ s\] adding 850 packages$/),
      expect.stringMatching(/^ {6}\[\d+ s\] @core\/runtime: build finished \(1\/2\)$/),
      expect.stringMatching(/^ {6}\[\d+ s\] @core\/cli: build finished \(2\/2\)$/),
    ]);
    expect(relayed.log).toBe(`${INSTALL_AND_BUILD.join('\n')}\n`);
  });

  it("exits with the command's exit code, its output in the log for the caller to print", async () => {
    const command = await fakeCommand('failing-build', ['   • Running build in 1 package', '@core/cli:build: src/index.ts(3,1): error TS1005'], 3);
    const relayed = await relay(command, ['--no-tty']);
    expect(relayed.code).toBe(3);
    expect(relayed.log).toContain('error TS1005');
  });

  it('says it is still working while the command is silent, naming the last count', async () => {
    const go = path.join(scratch, 'go');
    const command = await fakeCommand('silent-install', ['Progress: resolved 12, reused 10, downloaded 2, added 0', 'Done in 3s'], 0, go);
    const relayed = await relay(command, ['--no-tty', '--every-ms', '50'], (stderr) => {
      if (stderr.includes('still working (last:') && !existsSync(go)) void writeFile(go, '');
    });
    // Silence before the first line (the command starting) may say "still working" too; then the count, then the
    // line that names it while the command is silent.
    const lines = relayed.stderr.trimEnd().split('\n').filter((line) => !/^ {6}\[\d+ s\] still working$/.test(line));
    expect(lines.slice(0, 2)).toEqual([
      expect.stringMatching(/^ {6}\[\d+ s\] resolved 12 packages, 10 from the store, 2 downloaded, 0 added$/),
      expect.stringMatching(/^ {6}\[\d+ s\] still working \(last: resolved 12 packages, 10 from the store, 2 downloaded, 0 added\)$/),
    ]);
    expect(relayed.code).toBe(0);
  });

  it('on a terminal, redraws one line in place and clears it at the end', async () => {
    const command = await fakeCommand('terminal', INSTALL_AND_BUILD);
    const relayed = await relay(command, ['--tty']);
    expect(relayed.stderr).not.toContain('\n');
    expect(relayed.stderr.startsWith('\r\u001b[K      [')).toBe(true);
    expect(relayed.stderr).toContain('@core/cli: build finished (2/2)');
    expect(relayed.stderr.endsWith('\r\u001b[K')).toBe(true);
  });
});
