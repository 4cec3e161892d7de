import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isProcessAlive as isAlive, waitFor } from '@core/testkit';
import { callTool, tempDir, textOf, toolNamed } from './__fixtures__/temp-home.js';
import { DEFAULT_COMPUTER_LIMITS } from './computer-limits.js';
import { createComputerTools } from './create-computer-tools.js';

let home: Awaited<ReturnType<typeof tempDir>>;
const leftovers: number[] = [];
beforeEach(async () => {
  home = await tempDir();
});
afterEach(async () => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await home.dispose();
});

// These tests follow processes by their pids outside, so they run unsandboxed: the process tracking of
// `runCommand` without the sandbox. `sandbox/command-sandbox.test.ts` runs commands in the sandbox.
function commandTool(options: Parameters<typeof createComputerTools>[0] extends infer C ? Partial<C> : never = {}) {
  return toolNamed(createComputerTools({ home: home.path, sandbox: 'unsandboxed', ...options }), 'command');
}

async function childPid(file: string): Promise<number> {
  const pidFile = path.join(home.path, file);
  const pid = await waitFor(() => (existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '' ? Number(readFileSync(pidFile, 'utf8')) : undefined));
  leftovers.push(pid);
  return pid;
}

describe('command', () => {
  test('runs in the home with bash and reports exit code, stdout and stderr', async () => {
    const tool = commandTool();
    const result = await callTool(tool, { command: 'pwd; echo oops >&2; exit 7' });
    const text = textOf(result);
    expect(text).toMatch(/^Exit code 7 /);
    expect(text).toContain(`stdout:\n${home.path}`);
    expect(text).toContain('stderr:\noops');
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ exitCode: 7, timedOut: false, aborted: false });
    const ok = await callTool(tool, { command: 'echo hi' });
    expect(ok.isError).toBe(false);
  });

  test('labels the activity and its completion', async () => {
    const tool = commandTool();
    const params = { command: 'npm   test' };
    expect(tool.describeActivity(params)).toBe('Running `npm test`');
    const result = await callTool(tool, { command: 'exit 0' });
    expect(tool.describeCompletedActivity?.(params, result)).toMatch(/^Ran `npm test` \(exit 0, \d+ ms\)$/);
  });

  test('sees only the allowed environment plus the basics', async () => {
    process.env.ANKOLE_WORKER_SECRET = 'do-not-leak';
    try {
      const tool = commandTool({ env: { ALLOWED_TOKEN: 'visible' } });
      const result = await callTool(tool, { command: 'env' });
      const names = textOf(result)
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => line.slice(0, line.indexOf('=')))
        .sort();
      expect(textOf(result)).not.toContain('do-not-leak');
      expect(textOf(result)).toContain('ALLOWED_TOKEN=visible');
      expect(textOf(result)).toContain(`HOME=${home.path}`);
      expect(names).toEqual(['ALLOWED_TOKEN', 'ANKOLE_COMMAND_ID', 'GIT_PAGER', 'HOME', 'LANG', 'NO_COLOR', 'PAGER', 'PATH', 'PWD', 'SHLVL', 'TERM', '_']);
    } finally {
      delete process.env.ANKOLE_WORKER_SECRET;
    }
  });

  test('has mcporter on its PATH', async () => {
    const result = await callTool(commandTool(), { command: 'mcporter --version' });
    expect(textOf(result)).toContain('0.9.0');
  });

  test('caps long output keeping the head and the tail, saying how much was cut', async () => {
    const tool = commandTool({ limits: { maxOutputBytes: 1000 } });
    const result = await callTool(tool, { command: 'echo START; seq 1 20000; echo END' });
    const text = textOf(result);
    expect(text).toContain('START');
    expect(text).toContain('END');
    expect(text).not.toContain('\n10000\n');
    const cut = /\[… (\d+) bytes cut of (\d+): the first 500 and the last 500 are shown …\]/.exec(text);
    expect(cut).not.toBeNull();
    expect(Number(cut?.[2])).toBe(Number(cut?.[1]) + 1000);
    expect(result.details.cutBytes).toBe(Number(cut?.[1]));
  });

  test('a timeout kills the whole process group: no child survives', async () => {
    const tool = commandTool({ limits: { killGraceMs: 200 } });
    const running = callTool(tool, { command: 'sleep 1000 & echo $! > child.pid; wait', timeout_ms: 300 });
    const pid = await childPid('child.pid');
    const result = await running;
    expect(result.details).toMatchObject({ timedOut: true });
    expect(textOf(result)).toMatch(/^Timed out after 300 ms; the command and every process it started were killed\./);
    expect(result.isError).toBe(true);
    expect(isAlive(pid)).toBe(false);
  });

  test('an abort kills the whole process group, SIGKILL for a child that ignores SIGTERM', async () => {
    const tool = commandTool({ limits: { killGraceMs: 200 } });
    const controller = new AbortController();
    const running = callTool(
      tool,
      { command: `bash -c 'trap "" TERM; echo $$ > stubborn.pid; sleep 1000; sleep 1000' & sleep 1000 & echo $! > child.pid; wait` },
      controller.signal,
    );
    const child = await childPid('child.pid');
    const stubborn = await childPid('stubborn.pid');
    expect(isAlive(child)).toBe(true);
    controller.abort();
    const result = await running;
    expect(result.details).toMatchObject({ aborted: true, timedOut: false });
    expect(tool.describeCompletedActivity?.({ command: 'x' }, result)).toMatch(/^Ran `x` \(aborted after/);
    expect(isAlive(child)).toBe(false);
    expect(isAlive(stubborn)).toBe(false);
  });

  test("the turn's signal (from the context) aborts too", async () => {
    const turn = new AbortController();
    const tool = commandTool({ signal: turn.signal });
    const running = callTool(tool, { command: 'sleep 1000 & echo $! > child.pid; wait' });
    const pid = await childPid('child.pid');
    turn.abort();
    expect((await running).details).toMatchObject({ aborted: true });
    expect(isAlive(pid)).toBe(false);
  });

  test('background processes do not outlive a command that exited', async () => {
    const result = await callTool(commandTool(), { command: 'sleep 1000 > /dev/null 2>&1 & echo $! > child.pid; echo started' });
    const pid = Number(readFileSync(path.join(home.path, 'child.pid'), 'utf8'));
    leftovers.push(pid);
    expect(textOf(result)).toContain('started');
    expect(isAlive(pid)).toBe(false);
  });

  // The escaped process writes its pid, then its process group; the shell's pid is the command's group.
  const escape = (redirect: string) =>
    `setsid bash -c 'echo $$ > escaped.pid; cut -d" " -f5 /proc/$$/stat > escaped.pgid; exec sleep 1000' ${redirect} & ` +
    'echo $$ > shell.pid; while [ ! -s escaped.pgid ]; do sleep 0.01; done; echo started';

  test('a process that left the process group (setsid) is killed too, and its open output does not hold the call', async () => {
    for (const redirect of ['', '> /dev/null 2>&1']) {
      const result = await callTool(commandTool({ limits: { killGraceMs: 200 } }), { command: escape(redirect) });
      const escaped = Number(readFileSync(path.join(home.path, 'escaped.pid'), 'utf8'));
      leftovers.push(escaped);
      expect(textOf(result), redirect).toContain('started');
      expect(result.isError, redirect).toBe(false);
      // It really had left the command's group…
      expect(readFileSync(path.join(home.path, 'escaped.pgid'), 'utf8').trim()).not.toBe(readFileSync(path.join(home.path, 'shell.pid'), 'utf8').trim());
      // …and it is gone all the same.
      expect(isAlive(escaped), redirect).toBe(false);
    }
  });

  test('a process that left the group and cleared its environment cannot hold the call on its open output', async () => {
    const result = await callTool(commandTool({ limits: { killGraceMs: 200 } }), {
      command: "setsid env -i /bin/bash -c 'echo $$ > untracked.pid; exec sleep 1000' & while [ ! -s untracked.pid ]; do sleep 0.01; done; echo started",
    });
    // Untracked (documented): the test kills it.
    leftovers.push(Number(readFileSync(path.join(home.path, 'untracked.pid'), 'utf8')));
    expect(textOf(result)).toContain('started');
    expect(result.details).toMatchObject({ exitCode: 0, timedOut: false });
  });

  test('a timeout kills processes that left the process group too', async () => {
    const running = callTool(commandTool({ limits: { killGraceMs: 200 } }), { command: `${escape('')}; sleep 1000`, timeout_ms: 1000 });
    const escaped = await childPid('escaped.pid');
    const result = await running;
    expect(result.details).toMatchObject({ timedOut: true });
    expect(isAlive(escaped)).toBe(false);
  });

  test('the default timeout applies when the model gives none', async () => {
    const result = await callTool(commandTool({ limits: { commandTimeoutMs: 300, killGraceMs: 200 } }), { command: 'sleep 1000' });
    expect(result.details).toMatchObject({ timedOut: true });
    expect(textOf(result)).toMatch(/^Timed out after 300 ms/);
  });

  test('the model may ask for a timeout up to the ceiling, not above', () => {
    const tool = commandTool({ limits: { commandTimeoutMs: 1000, maxCommandTimeoutMs: 5000 } });
    expect(tool.schema.safeParse({ command: 'true', timeout_ms: 5000 }).success).toBe(true);
    expect(tool.schema.safeParse({ command: 'true', timeout_ms: 5001 }).success).toBe(false);
    // The dispatch's own timeout leaves room for the longest command and its kill grace.
    expect(tool.timeoutMs).toBeGreaterThan(5000 + 2 * DEFAULT_COMPUTER_LIMITS.killGraceMs);
  });

  test('a home removed after the tools were built is named as the cause', async () => {
    const gone = await tempDir();
    const tool = toolNamed(createComputerTools({ home: gone.path, sandbox: 'unsandboxed' }), 'command');
    await gone.dispose();
    const result = await callTool(tool, { command: 'true' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`The command could not be started (bash): the home folder ${gone.path} no longer exists`);
  });

  test('a shell that cannot start is an error result, not a throw', async () => {
    const tool = toolNamed(createComputerTools({ home: home.path, shell: '/nonexistent/shell', sandbox: 'unsandboxed' }), 'command');
    const result = await callTool(tool, { command: 'true' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('ENOENT');
  });
});
