import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestModelServer } from '@core/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWriteFileModel } from '../__fixtures__/write-file-model.js';
import { runCliProcess } from '../__fixtures__/spawn-cli.js';

// The home stays with the conversation: `-c` and `--resume` go on in the home the conversation started in, a different
// --home is refused in one sentence, the agent config's `home` is the default, and `conversations list` shows it.
let model: TestModelServer;
let scratch: string;
let env: Record<string, string>;

beforeAll(async () => {
  model = await startWriteFileModel({ content: 'hello\n', answerPrefix: 'answer to: ' });
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-conversation-home-'));
  env = { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: model.baseURL, XDG_DATA_HOME: path.join(scratch, 'data'), XDG_CONFIG_HOME: path.join(scratch, 'config'), HOME: scratch, TERM: 'dumb' };
});
afterAll(async () => {
  await model.close();
  await rm(scratch, { recursive: true, force: true });
});

const run = (...args: string[]) => runCliProcess(['run', '--approve', 'auto', ...args], env, 60_000);
const exists = (file: string) => stat(file).then(() => true, () => false);

describe('the home of a conversation', () => {
  it('-c and --resume without --home go on in the conversation\'s home; another --home is refused', async () => {
    const project = path.join(scratch, 'project');
    await mkdir(project);
    const first = await run('--agent', 'keep', '--home', project, 'write first.txt');
    expect(first.code).toBe(0);
    expect(await exists(path.join(project, 'first.txt'))).toBe(true);

    const second = await run('--agent', 'keep', '-c', 'write second.txt');
    expect(second.code).toBe(0);
    expect(await exists(path.join(project, 'second.txt'))).toBe(true);
    expect(await exists(path.join(scratch, 'data', 'ankole', 'agents', 'keep', 'second.txt'))).toBe(false);

    const id = /conversation ([0-9a-f]{8})/.exec(first.stdout)?.[1] ?? '';
    const resumed = await run('--agent', 'keep', '--resume', id, '--home', project, 'write third.txt');
    expect(resumed.code).toBe(0);
    expect(await exists(path.join(project, 'third.txt'))).toBe(true);

    const other = path.join(scratch, 'other');
    await mkdir(other);
    const refused = await run('--agent', 'keep', '-c', '--home', other, 'write fourth.txt');
    expect({ code: refused.code, stderr: refused.stderr }).toEqual({
      code: 2,
      stderr: `ankole: Conversation ${id} works in the home ${project}: leave out --home to go on with it there, or leave out -c/--resume to start a new conversation in ${other}.\n`,
    });
    expect(await exists(path.join(other, 'fourth.txt'))).toBe(false);

    const listed = await runCliProcess(['conversations', 'list', '--agent', 'keep'], env, 60_000);
    expect(listed.stdout.split('\n')[1]).toContain(' ~/project ');
  }, 120_000);

  it('the agent config\'s `home` is the default home of a new conversation (relative to the config file)', async () => {
    const notes = path.join(scratch, 'config', 'ankole', 'notes');
    await mkdir(notes, { recursive: true });
    await mkdir(path.join(scratch, 'config', 'ankole', 'agents'), { recursive: true });
    await writeFile(path.join(scratch, 'config', 'ankole', 'agents', 'configured.json'), JSON.stringify({ home: '../notes' }));
    const result = await run('--agent', 'configured', 'write note.txt');
    expect(result.code).toBe(0);
    expect(await readFile(path.join(notes, 'note.txt'), 'utf8')).toBe('hello\n');
    const shown = await runCliProcess(['config', 'show', '--agent', 'configured', '--json'], env, 60_000);
    expect((JSON.parse(shown.stdout) as { settings: Record<string, { value: unknown }> }).settings.home?.value).toBe(notes);
  }, 120_000);

  it('a `home` that is not text is refused with the file and field named', async () => {
    await mkdir(path.join(scratch, 'config', 'ankole', 'agents'), { recursive: true });
    await writeFile(path.join(scratch, 'config', 'ankole', 'agents', 'broken.json'), JSON.stringify({ home: 7 }));
    const result = await run('--agent', 'broken', 'hello');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/broken\.json is not valid: home must be a string/);
  }, 60_000);
});
