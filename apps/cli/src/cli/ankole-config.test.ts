import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliProcess } from '../__fixtures__/spawn-cli.js';
import { loadAnkoleConfig } from './ankole-config.js';
import { closestMatch } from './suggest.js';

// The config files (user, then agent over it) under the environment and the flags, with the built CLI.
let scratch: string;
let home: string;
let env: Record<string, string>;
let server: TestModelServer | undefined;

const userFile = () => path.join(scratch, 'config', 'ankole', 'config.json');
const agentFile = (agent: string) => path.join(scratch, 'config', 'ankole', 'agents', `${agent}.json`);

async function writeConfig(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value));
}

beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-config-'));
  home = path.join(scratch, 'home');
  await mkdir(home);
  env = { HOME: scratch, XDG_DATA_HOME: path.join(scratch, 'data'), XDG_CONFIG_HOME: path.join(scratch, 'config'), ANKOLE_APPROVE: 'auto', OPENAI_API_KEY: 'k' };
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(scratch, { recursive: true, force: true });
});

describe('config files', () => {
  it('the agent file over the user file, variables over both, flags over all', async () => {
    server = await startTestModelServer({ script: [reply.text('one'), reply.text('two'), reply.text('three'), reply.text('four')] });
    // No OPENAI_BASE_URL: the user file's baseURL leads to the test server.
    await writeConfig(userFile(), { model: 'user-model', baseURL: server.baseURL });
    await writeConfig(agentFile('ops'), { model: 'agent-model', approvals: { allow: ['command'] } });
    const models: string[] = [];
    for (const [args, extra] of [
      [['run', '--home', home, 'hi'], {}],
      [['run', '--home', home, '--agent', 'ops', 'hi'], {}],
      [['run', '--home', home, '--agent', 'ops', 'hi'], { ANKOLE_MODEL: 'env-model' }],
      [['run', '--home', home, '--agent', 'ops', '--model', 'flag-model', 'hi'], { ANKOLE_MODEL: 'env-model' }],
    ] as const) {
      const run = await runCliProcess([...args], { ...env, ...extra });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      models.push(server.requests.at(-1)?.body.model as string);
    }
    expect(models).toEqual(['user-model', 'agent-model', 'env-model', 'flag-model']);
  });

  it('maxSteps from the agent file limits the turn', async () => {
    server = await startTestModelServer({
      script: [reply.functionCalls([{ name: 'list_files', arguments: {} }]), reply.functionCalls([{ name: 'list_files', arguments: {} }])],
    });
    await writeConfig(agentFile('default'), { maxSteps: 1 });
    const run = await runCliProcess(['run', '--home', home, 'List forever'], { ...env, OPENAI_BASE_URL: server.baseURL });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('ankole: The turn stopped after 1 model call (the --max-steps limit) before the model finished.\n');
    expect(server.requests).toHaveLength(1);
  });

  it('a bad file is one sentence naming the file and the field, exit 2, for every command that reads it', async () => {
    await writeConfig(agentFile('default'), { maxSteps: '3' });
    for (const args of [['run', '--home', home, 'hi'], ['tools', '--home', home], ['config', 'show']]) {
      const result = await runCliProcess(args, env);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`ankole: The config file ${agentFile('default')} is not valid: maxSteps must be a number.\n`);
    }
    await writeConfig(userFile(), { modle: 'gpt-5', web: { search: 'brave' } });
    const typo = await runCliProcess(['config', 'show'], env);
    expect(typo.stderr).toMatch(new RegExp(`^ankole: The config file ${userFile()} is not valid: "modle" is not a setting \\(did you mean model\\?\\); the settings of this file are model, `));
    await writeConfig(userFile(), { web: { search: 'bing' } });
    const value = await runCliProcess(['config', 'show'], env);
    expect(value.stderr).toBe(`ankole: The config file ${userFile()} is not valid: web.search must be one of "brave", "tavily", "searxng", "none".\n`);
    await writeConfig(userFile(), '{ "model": ');
    const json = await runCliProcess(['config', 'show'], env);
    expect(json.stderr).toMatch(new RegExp(`^ankole: The config file ${userFile()} is not JSON \\(.*\\): fix it or remove it\\.\\n$`));
  });

  it("a field that belongs in the other kind of file says where it goes; a typo's suggestion comes from the file's own schema", async () => {
    const refusal = (agent?: string) =>
      loadAnkoleConfig({ env, ...(agent === undefined ? {} : { agent }) }).then(
        () => 'accepted',
        (error: Error) => error.message,
      );
    await writeConfig(userFile(), { model: 'm', approvals: { allow: ['command'] } });
    expect(await refusal('ops')).toBe(
      `The config file ${userFile()} is not valid: "approvals" belongs in an agent's file (${agentFile('ops')}, one file per agent), not in this one: move it there.`,
    );
    expect(await refusal()).toContain(`belongs in an agent's file (${agentFile('<agent>')}, one file per agent)`);
    // Misspelt in either file: the suggestion is a field that file accepts, never the word typed.
    await writeConfig(userFile(), { aprovals: {} });
    const misspelt = await refusal();
    expect(misspelt).toContain(
      `The config file ${userFile()} is not valid: "aprovals" is not a setting (did you mean approvals, which belongs in an agent's file (${agentFile('<agent>')}, one file per agent)?); `,
    );
    // The list is the user file's own: its settings (nested ones as web.search), not approvals.
    expect(misspelt).toMatch(/; the settings of this file are model, baseURL, approve, maxSteps, .*web\.search, .*skills.*\.$/);
    expect(misspelt.slice(misspelt.indexOf('the settings of this file'))).not.toContain('approvals');
    await writeConfig(userFile(), { aprove: 'ask' });
    expect(await refusal()).toContain('"aprove" is not a setting (did you mean approve?)');
    await writeConfig(userFile(), {});
    await writeConfig(agentFile('ops'), { aprovals: {}, model: 'm' });
    expect(await refusal('ops')).toMatch(/"aprovals" is not a setting \(did you mean approvals\?\); the settings of this file are .*, skills, .*approvals\.$/);
    await writeConfig(agentFile('ops'), { web: { serch: 'brave' } });
    expect(await refusal('ops')).toContain('"web.serch" is not a setting (did you mean web.search?)');
    await writeConfig(agentFile('ops'), { approvals: { allow: ['command'] } });
    expect(await refusal('ops')).toBe('accepted');
    expect(closestMatch('model', ['model', 'modal'])).toBe('modal');
  });

  it('`ankole config show` lists each effective value and where it came from', async () => {
    await writeConfig(userFile(), { model: 'user-model', web: { fetch: true }, mcpConfig: 'mcp.json' });
    await writeConfig(agentFile('ops'), { maxSteps: 7, approvals: { deny: ['command'] } });
    const shown = await runCliProcess(['config', 'show', '--agent', 'ops', '--json'], { ...env, ANKOLE_APPROVE: 'never' });
    expect(shown.stderr).toBe('');
    const { settings, approvals, controlPlane } = JSON.parse(shown.stdout) as Record<string, Record<string, unknown>>;
    expect(settings).toMatchObject({
      model: { value: 'user-model', source: userFile() },
      maxSteps: { value: 7, source: agentFile('ops') },
      approve: { value: 'never', source: 'ANKOLE_APPROVE' },
      'web.fetch': { value: true, source: userFile() },
      mcpConfig: { value: path.join(scratch, 'config', 'ankole', 'mcp.json'), source: userFile() },
      baseURL: { value: 'https://api.openai.com/v1', source: 'default' },
    });
    expect(approvals).toMatchObject({ deny: ['command'] });
    expect(controlPlane).toMatchObject({ kind: 'embedded', source: 'default', exists: false });
    const table = await runCliProcess(['config', 'show', '--agent', 'ops'], env);
    expect(table.stdout).toMatch(new RegExp(`^maxSteps +7 +${agentFile('ops')}$`, 'm'));
  });

  it("the README's example is a valid agent file, shown as written", async () => {
    const readme = await readFile(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Config files'));
    const example = /```json\n([\s\S]*?)```/.exec(section)?.[1];
    expect(example).toBeDefined();
    await writeConfig(agentFile('ops'), example!);
    const shown = await runCliProcess(['config', 'show', '--agent', 'ops', '--json'], { HOME: scratch, XDG_CONFIG_HOME: path.join(scratch, 'config'), XDG_DATA_HOME: path.join(scratch, 'data') });
    expect(shown.stderr).toBe('');
    const { settings, approvals } = JSON.parse(shown.stdout) as Record<string, Record<string, unknown>>;
    expect(settings).toMatchObject({
      model: { value: 'gpt-5-mini', source: agentFile('ops') },
      baseURL: { value: 'http://127.0.0.1:8000/v1' },
      approve: { value: 'never' },
      maxSteps: { value: 30 },
      toolTimeoutSeconds: { value: 300 },
      'web.search': { value: 'none' },
      'web.allowHosts': { value: ['intranet.local'] },
      mcpConfig: { value: path.join(scratch, 'config', 'ankole', 'agents', 'mcporter.json') },
    });
    expect(approvals).toMatchObject({ allow: ['write_file'], deny: ['command'] });
  });

  it('ankole worker takes the model endpoint from the user file (checked before it claims anything)', async () => {
    await writeConfig(userFile(), { baseURL: 'http://127.0.0.1:9/v1', model: 'user-model' });
    const worker = await runCliProcess(['worker', '--data-dir', path.join(scratch, 'db')], env);
    expect(worker.code).toBe(1);
    expect(worker.stderr).toMatch(/^ankole: .*http:\/\/127\.0\.0\.1:9\/v1/);
    await writeConfig(userFile(), { maxSteps: 0 });
    const bad = await runCliProcess(['worker', '--demo', '--data-dir', path.join(scratch, 'db')], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(`ankole: The config file ${userFile()} is not valid: maxSteps must be at least 1.\n`);
  });

  it('an mcpConfig from config.json that is missing is reported as the file\'s setting, not as a flag', async () => {
    await writeConfig(userFile(), { mcpConfig: 'missing-mcp.json' });
    const tools = await runCliProcess(['tools', '--home', home], env);
    expect({ code: tools.code, stderr: tools.stderr }).toEqual({
      code: 2,
      stderr: `ankole: The MCP config ${path.join(scratch, 'config', 'ankole', 'missing-mcp.json')} does not exist: fix "mcpConfig" in ${userFile()} (or give --mcp-config) to name an mcporter config file.\n`,
    });
  });
});
