import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { functionCallOutputs, lastUserText, reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess } from '../__fixtures__/spawn-cli.js';

// Conversations of `ankole run`, with the built CLI as a process and the testkit server as the model: --continue and
// --resume send the earlier turns, in stateless and in previous_response_id mode, and `ankole conversations` shows them.
let model: TestModelServer;
let scratch: string;
let env: Record<string, string>;

type Item = { type?: string; role?: string; content?: unknown; call_id?: string };
const inputOf = (index: number) => (model.requests[index]?.body?.input ?? []) as Item[];
const textOf = (content: unknown) =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : '';
const texts = (items: Item[]) => items.filter((item) => item.role !== undefined).map((item) => `${item.role}: ${textOf(item.content)}`);
const lastRequest = () => model.requests.length - 1;

beforeAll(async () => {
  model = await startTestModelServer({
    script: [],
    onExhausted: (request) => {
      const prompt = lastUserText(request) ?? '';
      const body = request.body as { previous_response_id?: string };
      if (prompt === 'forgotten' && body.previous_response_id !== undefined) {
        return reply.httpError(400, { message: `Previous response with id '${body.previous_response_id}' not found.`, code: 'previous_response_not_found', param: 'previous_response_id' });
      }
      if (prompt.startsWith('write') && functionCallOutputs(request).length === 0) {
        return reply.functionCalls([{ name: 'write_file', arguments: { path: 'name.txt', content: 'Ada\n' }, callId: 'w1' }]);
      }
      return reply.text(`answer to: ${prompt}`);
    },
  });
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-conversations-'));
  env = { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: model.baseURL, XDG_DATA_HOME: scratch, HOME: scratch, TERM: 'dumb' };
});
afterAll(async () => {
  await model.close();
  await rm(scratch, { recursive: true, force: true });
});

const run = (...args: string[]) => runCliProcess(['run', '--approve', 'auto', ...args], env, 60_000);
const conversationIdOf = (stdout: string) => /conversation ([0-9a-f]{8}), turn (\d+)/.exec(stdout)?.slice(1) ?? [];

describe('ankole run conversations', () => {
  it('--continue sends the earlier turns (tool calls and outputs included); --resume takes an id prefix; list and show', async () => {
    const first = await run('write my name into name.txt');
    expect(first.code).toBe(0);
    const [firstId, firstTurn] = conversationIdOf(first.stdout);
    expect(firstTurn).toBe('1');

    const second = await run('--continue', 'what is my name?');
    expect(second.code).toBe(0);
    expect(conversationIdOf(second.stdout)).toEqual([firstId, '2']);
    const continued = inputOf(lastRequest());
    expect(texts(continued)).toEqual([
      'user: write my name into name.txt',
      'assistant: answer to: write my name into name.txt',
      'user: what is my name?',
    ]);
    expect(continued.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_output', 'message', 'message']);
    expect(continued.find((item) => item.type === 'function_call_output')?.call_id).toBe('w1');

    const other = await run('something else');
    const [otherId] = conversationIdOf(other.stdout);
    expect(otherId).not.toBe(firstId);
    expect(texts(inputOf(lastRequest()))).toEqual(['user: something else']);

    const resumed = await run('--resume', firstId!.slice(0, 6), 'and again?');
    expect(resumed.code).toBe(0);
    expect(conversationIdOf(resumed.stdout)).toEqual([firstId, '3']);
    expect(texts(inputOf(lastRequest()))).toEqual([
      'user: write my name into name.txt',
      expect.stringMatching(/^assistant: /),
      'user: what is my name?',
      'assistant: answer to: what is my name?',
      'user: and again?',
    ]);

    const listed = await runCliProcess(['conversations', 'list', '--json'], env);
    const conversations = JSON.parse(listed.stdout) as Array<{ id: string; turns: unknown[]; title: string }>;
    expect(conversations.map((conversation) => [conversation.id.slice(0, 8), conversation.turns.length, conversation.title])).toEqual([
      [firstId, 3, 'write my name into name.txt'],
      [otherId, 1, 'something else'],
    ]);
    const table = await runCliProcess(['conversations'], env);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+UPDATED\s+TURNS\s+HOME\s+TITLE$/);

    const shown = await runCliProcess(['conversations', 'show', firstId!], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('› write my name into name.txt\n  ⚙ write_file {"path":"name.txt","content":"Ada\\n"}\n    → Created name.txt');
    expect(shown.stdout).toContain('› what is my name?\n\nanswer to: what is my name?\n  · turn 2: completed · 1 step · 0 tool calls · stateless');

    const drawn = await runCliProcess(['conversations', 'show', firstId!, '--transcript'], env);
    expect(drawn.stdout).toMatch(new RegExp(`^Transcript of conversation ${firstId}[0-9a-f-]+ · turn 1 · started `));
    expect(drawn.stdout).toContain('… Writing name.txt\n✓ Created name.txt');
    expect(drawn.stdout).toMatch(/── Completed · 2 steps · 1 tool call · /);
    expect(drawn.stdout).toContain(' · turn 3 · started ');
    const events = JSON.parse((await runCliProcess(['conversations', 'show', firstId!, '--transcript', '--json'], env)).stdout) as Array<{ turn: number; entries: Array<{ event: { type: string; arguments?: string } }> }>;
    expect(events.map((transcript) => transcript.turn)).toEqual([1, 2, 3]);
    expect(events[0]!.entries.find((entry) => entry.event.type === 'activity.started')?.event.arguments).toBe('{"path":"name.txt","content":"Ada\\n"}');

    // Written whole (temporary file renamed): no temporary files are left beside them.
    const folder = path.join(scratch, 'ankole', 'agent-data', 'default', 'conversations');
    expect((await readdir(folder)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(JSON.parse(await readFile(path.join(folder, `${conversations[0]!.id}.json`), 'utf8'))).toMatchObject({ version: 1, agent: 'default' });
  }, 180_000);

  it('in previous_response_id mode, sends only the new message after the stored response, and the whole conversation once the server forgot it', async () => {
    const agent = ['--agent', 'chain', '--previous-response-id'];
    const first = await run(...agent, 'chain one');
    expect(first.code).toBe(0);
    const firstRequest = model.requests[lastRequest()]!;
    expect(firstRequest.body).toMatchObject({ store: true });
    expect(firstRequest.body?.previous_response_id).toBeUndefined();

    const second = await run(...agent, '--continue', 'chain two');
    expect(second.code).toBe(0);
    const chained = model.requests[lastRequest()]!;
    expect(chained.body?.previous_response_id).toMatch(/^resp_/);
    expect(texts(inputOf(lastRequest()))).toEqual(['user: chain two']);

    const forgotten = await run(...agent, '--continue', 'forgotten');
    expect(forgotten.code).toBe(0);
    expect(forgotten.stdout).toContain("! The model endpoint no longer has this conversation's last response (resp_");
    const refused = model.requests[lastRequest() - 1]!;
    expect(refused.body?.previous_response_id).toMatch(/^resp_/);
    expect(model.requests[lastRequest()]!.body?.previous_response_id).toBeUndefined();
    expect(texts(inputOf(lastRequest()))).toEqual(['user: chain one', 'assistant: answer to: chain one', 'user: chain two', 'assistant: answer to: chain two', 'user: forgotten']);

    // The stateless flag on a chained conversation: the whole history again.
    const stateless = await runCliProcess(['run', '--agent', 'chain', '--continue', 'plain'], env, 60_000);
    expect(stateless.code).toBe(0);
    expect(model.requests[lastRequest()]!.body?.previous_response_id).toBeUndefined();
    expect(texts(inputOf(lastRequest())).at(-1)).toBe('user: plain');
    expect(texts(inputOf(lastRequest()))).toHaveLength(7);
  }, 180_000);

  it('says what is wrong with --continue and --resume', async () => {
    const none = await runCliProcess(['run', '--agent', 'fresh', '--continue', 'hi'], env);
    expect({ code: none.code, stderr: none.stderr }).toEqual({ code: 2, stderr: 'ankole: Agent fresh has no conversation to continue yet: start one with ankole run "<prompt>".\n' });
    const both = await runCliProcess(['run', '--continue', '--resume', 'abcd', 'hi'], env);
    expect(both.stderr).toBe('ankole: --continue and --resume both choose the conversation to go on with: give one of them.\n');
    const unknown = await runCliProcess(['run', '--resume', 'ffff', 'hi'], env);
    expect({ code: unknown.code, stderr: unknown.stderr }).toEqual({ code: 2, stderr: 'ankole: No conversation id starts with "ffff".\n' });
    const missing = await runCliProcess(['conversations', 'show', 'ffff'], env);
    expect(missing.code).toBe(2);
  }, 120_000);
});
