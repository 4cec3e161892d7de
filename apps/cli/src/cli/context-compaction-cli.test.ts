import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkRequestSemantics, functionCallOutputs, lastUserText, reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess } from '../__fixtures__/spawn-cli.js';

/*
 * A conversation continued 30 times past the model's window: the built CLI as a process, the testkit as the model
 * with a 40k-token window, each turn reading a 20 KB file (about 5k tokens). Without compaction the conversation hits
 * the window after a few turns; with the config's `context` settings it keeps working, the terminal says when it
 * compacted, and the stored conversation holds the compacted history.
 */
const WINDOW = 40_000;
const TURNS = 30;
let scratch: string;
let home: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-context-'));
  home = path.join(scratch, 'home');
  await mkdir(home);
  const line = 'the quick brown fox jumps over the lazy dog, once more, in a large file\n';
  await writeFile(path.join(home, 'big.txt'), line.repeat(Math.ceil(20_480 / line.length)));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A model that reads big.txt for every new prompt, then answers; `seen` notes whether each answer came after the file's whole output. */
async function readingModel(options: { compactEndpoint?: boolean }): Promise<{ model: TestModelServer; seen: boolean[] }> {
  const seen: boolean[] = [];
  const model = await startTestModelServer({
    script: [],
    contextWindow: WINDOW,
    ...options,
    onExhausted: (request) => {
      const input = request.body.input as Array<{ type?: string; role?: string }>;
      const last = input.at(-1);
      if (last?.type === 'function_call_output') {
        const output = String(functionCallOutputs(request).at(-1)?.output ?? '');
        seen.push(output.includes('lazy dog') && output.length > 20_000);
        return reply.text('I read big.txt again.');
      }
      return reply.functionCalls([{ name: 'read_file', arguments: { path: 'big.txt' } }], { text: `Reading for: ${lastUserText(request) ?? ''}` });
    },
  });
  return { model, seen };
}

async function configure(name: string, context: Record<string, unknown>): Promise<Record<string, string>> {
  const root = path.join(scratch, name);
  await mkdir(path.join(root, 'config', 'ankole'), { recursive: true });
  await writeFile(path.join(root, 'config', 'ankole', 'config.json'), JSON.stringify({ model: 'small-window-model', context }));
  return { XDG_DATA_HOME: path.join(root, 'data'), XDG_CONFIG_HOME: path.join(root, 'config'), HOME: root, TERM: 'dumb' };
}

async function storedConversation(env: Record<string, string>): Promise<{ items: Array<{ type?: string }>; turns: unknown[] }> {
  const files = (await readdir(env.XDG_DATA_HOME!, { recursive: true })).filter((file) => /conversations\/[0-9a-f-]{36}\.json$/.test(file));
  expect(files).toHaveLength(1);
  return JSON.parse(await readFile(path.join(env.XDG_DATA_HOME!, files[0]!), 'utf8')) as { items: Array<{ type?: string }>; turns: unknown[] };
}

describe('ankole run --continue past the context window', () => {
  it(`keeps working for ${TURNS} turns, compacting through the server, and says so`, async () => {
    const { model, seen } = await readingModel({});
    try {
      const env = { ...(await configure('server', { windows: { 'small-window-model': WINDOW } })), OPENAI_API_KEY: 'test', OPENAI_BASE_URL: model.baseURL };
      const outputs: string[] = [];
      for (let turn = 1; turn <= TURNS; turn += 1) {
        const result = await runCliProcess(['run', '--approve', 'auto', '--home', home, ...(turn === 1 ? [] : ['--continue']), `turn ${turn}`], env, 60_000);
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        outputs.push(result.stdout);
      }
      expect(seen).toEqual(new Array(TURNS).fill(true));
      const compacted = outputs.filter((stdout) => /↻ Compacted context: [\d,]+ → [\d,]+ tokens of 40,000/.test(stdout));
      expect(compacted.length).toBeGreaterThan(1);
      expect(model.requests.filter((request) => request.path === '/v1/responses/compact').length).toBeGreaterThan(1);
      const conversation = await storedConversation(env);
      expect(conversation.turns).toHaveLength(TURNS);
      expect(conversation.items.some((item) => item.type === 'compaction')).toBe(true);
      // Every turn went on from the stored history: the last request still carries the first prompt.
      expect(JSON.stringify(model.requests.at(-1)?.body.input)).toContain('turn 1');
    } finally {
      await model.close();
    }
  }, 600_000);

  it('keeps working in --previous-response-id mode: the stored chain is compacted and the conversation stores the compacted history', async () => {
    const { model, seen } = await readingModel({});
    try {
      const env = { ...(await configure('chained', { windows: { 'small-window-model': WINDOW } })), OPENAI_API_KEY: 'test', OPENAI_BASE_URL: model.baseURL };
      const turns = 15;
      for (let turn = 1; turn <= turns; turn += 1) {
        const result = await runCliProcess(['run', '--approve', 'auto', '--previous-response-id', '--home', home, ...(turn === 1 ? [] : ['--continue']), `turn ${turn}`], env, 60_000);
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
      }
      expect(seen).toEqual(new Array(turns).fill(true));
      const compacts = model.requests.filter((request) => request.path === '/v1/responses/compact');
      expect(compacts.some((request) => typeof request.body.previous_response_id === 'string')).toBe(true);
      // The stored history is the compacted one (not the whole conversation), and valid to continue from.
      const conversation = await storedConversation(env);
      expect(conversation.items.some((item) => item.type === 'compaction')).toBe(true);
      expect(JSON.stringify(conversation.items).length / 4).toBeLessThan(WINDOW);
      expect(checkRequestSemantics({ model: 'm', input: conversation.items })).toBeUndefined();
    } finally {
      await model.close();
    }
  }, 600_000);

  it('without compaction (context.compaction: "off") the conversation hits the window and says how large it was', async () => {
    const { model } = await readingModel({});
    try {
      const env = { ...(await configure('off', { windows: { 'small-window-model': WINDOW }, compaction: 'off' })), OPENAI_API_KEY: 'test', OPENAI_BASE_URL: model.baseURL };
      let failed: { turn: number; stderr: string } | undefined;
      for (let turn = 1; turn <= TURNS && failed === undefined; turn += 1) {
        const result = await runCliProcess(['run', '--approve', 'auto', '--home', home, ...(turn === 1 ? [] : ['--continue']), `turn ${turn}`], env, 60_000);
        if (result.code !== 0) failed = { turn, stderr: result.stderr + result.stdout };
      }
      expect(failed?.turn).toBeLessThan(12);
      expect(failed?.stderr).toMatch(/40,000-token window set for model small-window-model/);
    } finally {
      await model.close();
    }
  }, 600_000);

  it('falls back to the local strategy when the server has no /responses/compact', async () => {
    const { model, seen } = await readingModel({ compactEndpoint: false });
    try {
      const env = { ...(await configure('local', { windows: { 'small-window-model': WINDOW } })), OPENAI_API_KEY: 'test', OPENAI_BASE_URL: model.baseURL };
      const turns = 15;
      let compactedLines = 0;
      for (let turn = 1; turn <= turns; turn += 1) {
        const result = await runCliProcess(['run', '--approve', 'auto', '--home', home, ...(turn === 1 ? [] : ['--continue']), `turn ${turn}`], env, 60_000);
        expect(result.code).toBe(0);
        if (result.stdout.includes('↻ Compacted context:')) compactedLines += 1;
      }
      expect(seen).toEqual(new Array(turns).fill(true));
      expect(compactedLines).toBeGreaterThan(0);
      const conversation = await storedConversation(env);
      expect(JSON.stringify(conversation.items)).toContain('[elided by context compaction: the output of read_file');
    } finally {
      await model.close();
    }
  }, 600_000);
});
