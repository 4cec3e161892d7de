import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { lastUserText, reply, startTestModelServer } from '@core/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLI_PATH } from '../__fixtures__/spawn-cli.js';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-piped-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** `printf … | ankole run …`: the built CLI with `input` on a pipe as its standard input. */
function runPiped(args: string[], input: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI_PATH, ...args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

it('ankole run reads the prompt from standard input when none is given', async () => {
  const server = await startTestModelServer({ script: [(request) => reply.text(`You said: ${lastUserText(request)}`)] });
  try {
    const env = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseURL, HOME: scratch, XDG_DATA_HOME: scratch };
    const result = await runPiped(['run', '--json', '--home', scratch], 'Summarise the notes\nin this folder\n', env);
    expect(result.code).toBe(0);
    expect(lastUserText(server.requests.at(-1)!)).toBe('Summarise the notes\nin this folder');
    expect(result.stdout).toContain('You said: Summarise the notes');
  } finally {
    await server.close();
  }
}, 60_000);

it('an empty pipe is no prompt: the usage sentence says how to give one', async () => {
  const env = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', HOME: scratch, XDG_DATA_HOME: scratch };
  const result = await runPiped(['run', '--home', scratch], '  \n', env);
  expect(result.code).toBe(2);
  expect(result.stderr.trimEnd()).toBe('ankole: Give the prompt to run: ankole run "<prompt>" (or pipe it in: echo "<prompt>" | ankole run).');
}, 60_000);

it('`ankole run -` takes the prompt from standard input, and says so when it held none', async () => {
  const server = await startTestModelServer({ script: [(request) => reply.text(`You said: ${lastUserText(request)}`)] });
  try {
    const env = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseURL, HOME: scratch, XDG_DATA_HOME: scratch };
    const result = await runPiped(['run', '--home', scratch, '-'], 'Count the notes\n', env);
    expect(result.code).toBe(0);
    expect(lastUserText(server.requests.at(-1)!)).toBe('Count the notes');
    const empty = await runPiped(['run', '--home', scratch, '-'], '', env);
    expect({ code: empty.code, stderr: empty.stderr }).toEqual({
      code: 2,
      stderr: 'ankole: `ankole run -` reads the prompt from standard input, which held none: pipe one in (echo "<prompt>" | ankole run -) or give it as an argument.\n',
    });
  } finally {
    await server.close();
  }
}, 60_000);
