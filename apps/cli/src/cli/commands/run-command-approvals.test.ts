import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLI_PATH, runCliProcess } from '../../__fixtures__/spawn-cli.js';
import { createVirtualTerminal } from '../../__fixtures__/virtual-terminal.js';

let scratch: string;
let home: string;
let server: TestModelServer | undefined;

beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-approve-'));
  home = path.join(scratch, 'home');
  await mkdir(home);
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(scratch, { recursive: true, force: true });
});

/** A model that asks to create a file through `command`, then answers. */
async function commandModel(): Promise<TestModelServer> {
  server = await startTestModelServer({
    script: [reply.functionCalls([{ name: 'command', callId: 'call_touch', arguments: { command: 'touch made.txt' } }]), reply.text('I will leave it.')],
  });
  return server;
}

/** The output the model got for `callId` in its second request. */
function secondOutput(model: TestModelServer, callId: string): unknown {
  const input = (model.requests[1]?.body.input ?? []) as Array<{ type: string; call_id?: string; output?: unknown }>;
  return input.find((item) => item.type === 'function_call_output' && item.call_id === callId)?.output;
}

function baseEnv(model: TestModelServer): Record<string, string> {
  return { HOME: scratch, XDG_DATA_HOME: path.join(scratch, 'data'), XDG_CONFIG_HOME: path.join(scratch, 'config'), OPENAI_API_KEY: 'k', OPENAI_BASE_URL: model.baseURL };
}

describe('ankole run approvals without a terminal', () => {
  it('denies a destructive call by default; the model is told no one could be asked, and the turn goes on', async () => {
    const model = await commandModel();
    const { code, stdout } = await runCliProcess(['run', '--home', home, 'Make a file'], baseEnv(model));
    expect(code).toBe(0);
    expect(existsSync(path.join(home, 'made.txt'))).toBe(false);
    expect(secondOutput(model, 'call_touch')).toMatch(
      /^Error: not run: this call of "command" needs a person's approval and no one could be asked \(ankole run has no terminal to ask on\)\. Do not repeat the call/,
    );
    expect(stdout).toContain('✗ Running `touch made.txt` (0 ms) denied (no one could be asked): ankole run has no terminal to ask on');
    expect(stdout).toMatch(/── Completed · 2 steps · 1 tool call · 1 call denied with no one to ask · /);
    expect(stdout).toContain('I will leave it.');
  });

  it('denies with --approve never, runs with --approve auto', async () => {
    const denied = await commandModel();
    await runCliProcess(['run', '--home', home, '--approve', 'never', 'Make a file'], baseEnv(denied));
    expect(secondOutput(denied, 'call_touch')).toMatch(/no one could be asked \(ankole run runs with --approve never\)/);
    expect(existsSync(path.join(home, 'made.txt'))).toBe(false);
    await denied.close();
    const allowed = await commandModel();
    const { code } = await runCliProcess(['run', '--home', home, '--approve', 'auto', 'Make a file'], baseEnv(allowed));
    expect(code).toBe(0);
    expect(existsSync(path.join(home, 'made.txt'))).toBe(true);
  });

  it("follows the agent config's deny list even with --approve auto: the config denied it, and the summary counts it", async () => {
    const model = await commandModel();
    const env = baseEnv(model);
    await mkdir(path.join(env.XDG_CONFIG_HOME!, 'ankole', 'agents'), { recursive: true });
    await writeFile(path.join(env.XDG_CONFIG_HOME!, 'ankole', 'agents', 'default.json'), JSON.stringify({ approvals: { deny: ['command'] } }));
    const { stdout } = await runCliProcess(['run', '--home', home, '--approve', 'auto', 'Make a file'], env);
    expect(secondOutput(model, 'call_touch')).toMatch(
      /^Error: not run: the agent's configuration does not allow this call of "command" \(rule: approvals\.deny in the agent config lists "command"\)\. Do not repeat the call/,
    );
    expect(stdout).toContain('✗ Running `touch made.txt` (0 ms) denied by the config: approvals.deny in the agent config lists "command"');
    expect(stdout).toMatch(/── Completed · 2 steps · 1 tool call · 1 call denied by the config · /);
    expect(existsSync(path.join(home, 'made.txt'))).toBe(false);
  });

  it('--json: the denied call carries who denied it, and run.completed counts it', async () => {
    const model = await commandModel();
    const { stdout } = await runCliProcess(['run', '--home', home, '--json', 'Make a file'], baseEnv(model));
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; callId?: string; [key: string]: unknown });
    expect(events.find((event) => event.type === 'approval.decided')).toMatchObject({ callId: 'call_touch', decision: 'denied', by: 'unattended' });
    expect(events.find((event) => event.type === 'activity.completed')).toMatchObject({ callId: 'call_touch', denial: { by: 'unattended', reason: 'ankole run has no terminal to ask on' } });
    expect(events.at(-1)).toMatchObject({ type: 'run.completed', deniedCalls: { total: 1, config: 0, person: 0, unattended: 1 } });
  });
});

describe('ankole run: a tool in the config\'s deny list', () => {
  it('is denied even when it needs no approval by itself (a read-only tool)', async () => {
    server = await startTestModelServer({
      script: [reply.functionCalls([{ name: 'read_file', callId: 'call_read', arguments: { path: 'secret.txt' } }]), reply.text('I could not read it.')],
    });
    const model = server;
    await writeFile(path.join(home, 'secret.txt'), 'the secret');
    const env = baseEnv(model);
    await mkdir(path.join(env.XDG_CONFIG_HOME!, 'ankole', 'agents'), { recursive: true });
    await writeFile(path.join(env.XDG_CONFIG_HOME!, 'ankole', 'agents', 'default.json'), JSON.stringify({ approvals: { deny: ['read_file'] } }));
    const { code } = await runCliProcess(['run', '--home', home, '--approve', 'auto', 'Read the secret'], env);
    expect(code).toBe(0);
    expect(secondOutput(model, 'call_read')).toMatch(/the agent's configuration does not allow this call of "read_file" \(rule: approvals\.deny in the agent config lists "read_file"\)/);
    expect(JSON.stringify(secondOutput(model, 'call_read'))).not.toContain('the secret');
  });
});

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

describe.skipIf(!hasScript())('ankole run approvals on a terminal', () => {
  it('shows the label and arguments, takes a denial with a reason, and the turn goes on', async () => {
    const model = await commandModel();
    const child = spawn('script', ['-qfec', `${process.execPath} ${CLI_PATH} run --home ${home} "Make a file"`, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'dumb', ...baseEnv(model) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let raw = '';
    let answered = 0;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      raw += chunk;
      if (answered === 0 && raw.includes('[n] deny: ')) {
        answered = 1;
        child.stdin.write('n\n');
      } else if (answered === 1 && raw.includes('Reason (optional')) {
        answered = 2;
        child.stdin.write('keep the folder clean\n');
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    expect(code).toBe(0);
    const terminal = createVirtualTerminal();
    terminal.write(raw);
    const screen = terminal.screen();
    expect(screen).toContain('? Approval needed: Running `touch made.txt` (command, destructive)');
    expect(screen).toContain('arguments: {"command":"touch made.txt"}');
    expect(secondOutput(model, 'call_touch')).toMatch(/^Error: not run: a person declined to approve this call of "command"\. Reason: keep the folder clean/);
    expect(existsSync(path.join(home, 'made.txt'))).toBe(false);
    expect(screen).toContain('denied by a person: keep the folder clean');
    expect(screen).toMatch(/── Completed · 2 steps · 1 tool call · 1 call denied by a person · /);
    expect(screen).toContain('I will leave it.');
  });

  it('keeps answers typed ahead: two answers typed at the first question decide both calls', async () => {
    server = await startTestModelServer({
      script: [
        reply.functionCalls([
          { name: 'command', callId: 'call_one', arguments: { command: 'touch one.txt' } },
          { name: 'command', callId: 'call_two', arguments: { command: 'touch two.txt' } },
        ]),
        reply.text('Both made.'),
      ],
    });
    const model = server;
    // In character mode (`stty -icanon`: a terminal a full-screen program left so) both answers arrive in one read.
    const child = spawn('script', ['-qfec', `stty -icanon; ${process.execPath} ${CLI_PATH} run --home ${home} "Make two files"`, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'dumb', ...baseEnv(model) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let raw = '';
    let typed = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      raw += chunk;
      if (!typed && raw.includes('[n] deny: ')) {
        typed = true;
        // Both answers in one go, before the second question is asked.
        child.stdin.write('y\ny\n');
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    expect(code).toBe(0);
    expect(existsSync(path.join(home, 'one.txt'))).toBe(true);
    expect(existsSync(path.join(home, 'two.txt'))).toBe(true);
    const terminal = createVirtualTerminal();
    terminal.write(raw);
    expect(terminal.screen()).toContain('Both made.');
  });
});
