import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliProcess } from '../__fixtures__/spawn-cli.js';

let scratch: string;
let env: Record<string, string>;
let server: TestModelServer | undefined;

beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-errors-'));
  env = { HOME: scratch, XDG_DATA_HOME: path.join(scratch, 'data') };
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(scratch, { recursive: true, force: true });
});

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** One sentence on stderr, prefixed `ankole:`, no stack trace. */
function expectOneSentence(stderr: string, pattern: RegExp): void {
  const errorLines = stderr.trimEnd().split('\n');
  expect(errorLines).toHaveLength(1);
  expect(errorLines[0]).toMatch(/^ankole: /);
  expect(errorLines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('errors a user can cause: one sentence on stderr, a non-zero exit code', () => {
  it('no such home', async () => {
    const missing = path.join(scratch, 'nope');
    const { code, stdout, stderr } = await runCliProcess(['run', '--home', missing, 'hi'], env);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expectOneSentence(stderr, new RegExp(`The home folder ${missing} does not exist`));
  });

  it('a home that is a file', async () => {
    const file = path.join(scratch, 'file');
    await writeFile(file, 'x');
    const { code, stderr } = await runCliProcess(['tools', '--home', file], env);
    expect(code).toBe(2);
    expectOneSentence(stderr, /is not a folder/);
  });

  it('an unknown flag, a flag without its value, a bad number, an unknown command', async () => {
    const unknown = await runCliProcess(['run', '--frobnicate', 'hi'], env);
    expect(unknown.code).toBe(2);
    expectOneSentence(unknown.stderr, /Unknown option --frobnicate for `ankole run`: see `ankole run --help`\./);

    const missingValue = await runCliProcess(['run', 'hi', '--model'], env);
    expect(missingValue.code).toBe(2);
    expectOneSentence(missingValue.stderr, /--model/);

    const badNumber = await runCliProcess(['run', '--max-steps', '0', 'hi'], env);
    expect(badNumber.code).toBe(2);
    expectOneSentence(badNumber.stderr, /--max-steps of `ankole run` must be a whole number of 1 or more, got "0"/);

    const command = await runCliProcess(['frobnicate'], env);
    expect(command.code).toBe(2);
    expectOneSentence(command.stderr, /Unknown command "frobnicate": the commands are run, tools, worker, (\w+, )*jobs, (\w+, )*schedules, /);
  });

  it('--env naming a variable that is not set', async () => {
    const { code, stderr } = await runCliProcess(['tools', '--home', scratch, '--env', 'NOT_SET_ANYWHERE'], env);
    expect(code).toBe(2);
    expectOneSentence(stderr, /--env NOT_SET_ANYWHERE: NOT_SET_ANYWHERE is not set here/);
  });

  it('an unknown web search provider, by flag or by WEB_SEARCH_PROVIDER', async () => {
    const { code, stderr } = await runCliProcess(['tools', '--web-search', 'altavista'], env);
    expect(code).toBe(2);
    expectOneSentence(stderr, /^ankole: --web-search "altavista" is not a known provider/);
    const noKey = await runCliProcess(['tools', '--web-search', 'brave'], env);
    expect(noKey.code).toBe(2);
    expectOneSentence(noKey.stderr, /^ankole: --web-search brave needs BRAVE_API_KEY/);
    const fromEnv = await runCliProcess(['run', 'hi'], { ...env, WEB_SEARCH_PROVIDER: 'bing' });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stdout).toBe('');
    expectOneSentence(fromEnv.stderr, /WEB_SEARCH_PROVIDER.*bing/);
  });

  it('a --max-steps that is not a number, a skills path or MCP config that is not what it should be', async () => {
    const steps = await runCliProcess(['run', '--max-steps', 'abc', 'hi'], env);
    expect(steps.code).toBe(2);
    expectOneSentence(steps.stderr, /--max-steps of `ankole run` must be a whole number of 1 or more, got "abc"\./);
    const file = path.join(scratch, 'file');
    await writeFile(file, 'x');
    const skills = await runCliProcess(['tools', '--home', scratch, '--skills', file], env);
    expect(skills.code).toBe(2);
    expectOneSentence(skills.stderr, new RegExp(`The skills path ${file} is not a folder`));
    const mcp = await runCliProcess(['tools', '--home', scratch, '--mcp-config', scratch], env);
    expect(mcp.code).toBe(2);
    expectOneSentence(mcp.stderr, new RegExp(`The MCP config ${scratch} is not a file`));
  });

  it('an OPENAI_BASE_URL that is not a URL', async () => {
    const { code, stderr } = await runCliProcess(['run', '--home', scratch, 'hi'], { ...env, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'localhost:8000' });
    expect(code).toBe(2);
    expectOneSentence(stderr, /^ankole: OPENAI_BASE_URL "localhost:8000" is not an http\(s\) URL: set it to the server's API root, e\.g\. http:\/\/localhost:8000\/v1\.$/);
  });

  it('an unreachable model endpoint', async () => {
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1`;
    const { code, stderr } = await runCliProcess(['run', '--home', scratch, 'hi'], { ...env, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: baseURL });
    expect(code).toBe(1);
    expectOneSentence(stderr, new RegExp(`Could not reach the model endpoint ${baseURL}.*ECONNREFUSED.*: check OPENAI_BASE_URL and your network\\.`));
  });

  it('an invalid API key', async () => {
    server = await startTestModelServer({
      script: [
        reply.httpError(401, { message: 'Incorrect API key provided: sk-wrong.', type: 'invalid_request_error', code: 'invalid_api_key' }),
      ],
    });
    const { code, stderr } = await runCliProcess(['run', '--home', scratch, 'hi'], { ...env, OPENAI_API_KEY: 'sk-wrong', OPENAI_BASE_URL: server.baseURL });
    expect(code).toBe(1);
    expectOneSentence(stderr, new RegExp(`The API key was refused by the model endpoint ${server.baseURL} \\(HTTP 401\\): check OPENAI_API_KEY\\.`));
    expect(server.requests).toHaveLength(1);
  });

  it('no command at all prints the usage on stderr; --help prints it on stdout', async () => {
    const none = await runCliProcess([], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^Usage: ankole <command> \[options\]\n\nCommands:\n  run +run one text turn/);
    const help = await runCliProcess(['--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/\n  tools +show the tool set a turn would get/);
    const runHelp = await runCliProcess(['run', '--help'], env);
    expect(runHelp.code).toBe(0);
    expect(runHelp.stdout).toMatch(/^Usage: ankole run \[options\] "<prompt>"/);
  });

  it('a real model without a prompt', async () => {
    const { code, stderr } = await runCliProcess(['run', '--home', scratch], { ...env, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' });
    expect(code).toBe(2);
    expectOneSentence(stderr, /Give the prompt to run/);
  });
});
