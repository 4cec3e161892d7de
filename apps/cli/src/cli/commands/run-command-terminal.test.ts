import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_PATH } from '../../__fixtures__/spawn-cli.js';
import { createVirtualTerminal } from '../../__fixtures__/virtual-terminal.js';

/** util-linux `script` gives the CLI a real pseudo-terminal. */
function hasScript(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

let scratch: string;

beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-tty-'));
});

afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** Runs the offline demo in a pseudo-terminal with `env`; resolves with the exit code and everything written. */
async function demoInTerminal(env: Record<string, string>): Promise<{ code: number | null; raw: string }> {
  const child = spawn('script', ['-qfec', `${process.execPath} ${CLI_PATH} run --demo --home ${scratch}`, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratch, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let raw = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    raw += chunk;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  return { code, raw };
}

describe.skipIf(!hasScript())('ankole run on a terminal', () => {
  it('draws live spinner lines that the completed lines replace, with colours', async () => {
    const { code, raw } = await demoInTerminal({ TERM: 'xterm-256color', COLUMNS: '120', LINES: '50' });
    expect(code).toBe(0);
    // Live lines: a spinner frame next to a running tool's label, erased again, colours, hidden cursor.
    expect(raw).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]\u001b\[39m Reading ankole-demo\/notes\/README\.md/);
    expect(raw).toContain('\u001b[J');
    expect(raw).toContain('\u001b[?25l');
    expect(raw).toContain('\u001b[32m✓\u001b[39m');
    // What stays on screen: the completed lines, no spinner, no "…" start lines.
    const terminal = createVirtualTerminal();
    terminal.write(raw);
    const screen = terminal.screen();
    expect(screen).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    expect(screen).not.toContain('… ');
    expect(screen.split('\n').filter((line) => /^✓ (Read|Listed|Searched)/.test(line))).toHaveLength(4);
    expect(screen).toMatch(/\n── Completed · 6 steps · 11 tool calls · /);
  });

  it('prints plain lines on a terminal that cannot move the cursor (TERM=dumb)', async () => {
    const { code, raw } = await demoInTerminal({ TERM: 'dumb' });
    expect(code).toBe(0);
    expect(raw).toContain('… Reading ankole-demo/notes/README.md');
    expect(raw).toMatch(/── Completed · 6 steps · 11 tool calls · /);
    expect(raw).not.toContain('\u001b');
  });
});
