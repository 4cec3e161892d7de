import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createOpenAIResponsesGateway, defineWorkerTool, type AnyWorkerAgentTool } from '@core/runtime';
import { reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { createSearxngSearchProvider } from '@core/tools-web';
import { createControlPlane, createPGliteDriver, type ControlPlane, type SqlDriver } from '@core/control-plane';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTurnTools, runTextTurn } from './text-turn.js';
import type { TextTurnContext } from './turn-context.js';

let home: string;
let server: TestModelServer | undefined;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'ankole-turn-'));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(home, { recursive: true, force: true });
});

const COMPUTER = ['command', 'read_file', 'list_files', 'search_files', 'write_file', 'edit_file'];

function context(extra: Partial<TextTurnContext> = {}): TextTurnContext {
  return { home, signal: new AbortController().signal, ...extra };
}

function names(tools: readonly AnyWorkerAgentTool[]): string[] {
  return tools.map((tool) => tool.name);
}

const mcpEcho = defineWorkerTool({
  name: 'echo',
  namespace: 'everything',
  description: 'Echoes its message.',
  schema: z.object({ message: z.string() }),
  describeActivity: () => 'Echoing',
  execute: (params) => ({ content: params.message }),
});

describe('buildTurnTools', () => {
  it('without a web profile: the todo tool, then the computer tools, nothing else', async () => {
    const { tools } = await buildTurnTools(context());
    expect(names(tools)).toEqual(['todo_write', ...COMPUTER]);
  });

  it('with a web profile: the web tools after the computer tools; search only with a provider', async () => {
    const search = createSearxngSearchProvider({ baseURL: 'http://127.0.0.1:1' });
    expect(names((await buildTurnTools(context({ webProfile: { search, fetch: true } }))).tools)).toEqual([
      'todo_write',
      ...COMPUTER,
      'web_search',
      'web_fetch',
    ]);
    expect(names((await buildTurnTools(context({ webProfile: { fetch: true } }))).tools)).toEqual(['todo_write', ...COMPUTER, 'web_fetch']);
  });

  it('puts the rest (MCP tools and other adapters) last', async () => {
    const { tools } = await buildTurnTools(context({ extraTools: [mcpEcho] }));
    expect(names(tools)).toEqual(['todo_write', ...COMPUTER, 'echo']);
    expect(tools.at(-1)?.namespace).toBe('everything');
  });

  it('builds fresh tools every turn: two turns share no tool object and no array', async () => {
    const webProfile = { search: createSearxngSearchProvider({ baseURL: 'http://127.0.0.1:1' }), fetch: true };
    const first = await buildTurnTools(context({ webProfile }));
    const second = await buildTurnTools(context({ webProfile }));
    expect(first.tools).toHaveLength(COMPUTER.length + 3);
    expect(first.tools).not.toBe(second.tools);
    const shared = first.tools.filter((tool) => second.tools.includes(tool));
    expect(shared).toEqual([]);
  });

  it("binds each turn's tools to that turn's home and signal: a turn's aborted signal does not reach another turn", async () => {
    const other = await mkdtemp(path.join(tmpdir(), 'ankole-turn-other-'));
    try {
      const aborted = new AbortController();
      aborted.abort();
      const first = await buildTurnTools(context({ signal: aborted.signal }));
      const second = await buildTurnTools({ home: other, signal: new AbortController().signal, commandSandbox: 'unsandboxed' });
      const run = (tools: AnyWorkerAgentTool[], command: string) =>
        tools.find((tool) => tool.name === 'command')?.execute({ command }, { signal: new AbortController().signal, callId: 'c', toolName: 'command' });
      const secondResult = await run(second.tools, 'pwd');
      expect(JSON.stringify(secondResult?.content)).toContain(other);
      const firstResult = await run(first.tools, 'pwd');
      expect(firstResult?.isError).toBe(true);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it("carries the agent's plan from earlier turns in the instructions, per home", async () => {
    const first = await buildTurnTools(context());
    const todo = first.tools[0];
    await todo?.execute(
      { todos: [{ content: 'Draft the report', status: 'in_progress' }, { content: 'Send it', status: 'pending' }] },
      { signal: new AbortController().signal, callId: 'c1', toolName: 'todo_write' },
    );
    const next = await buildTurnTools(context());
    expect(next.instructions).toContain('Your current plan (0/2 done), from earlier turns:\n[>] 1. Draft the report\n[ ] 2. Send it');
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'ankole-turn-elsewhere-'));
    try {
      expect((await buildTurnTools({ home: elsewhere, signal: new AbortController().signal })).instructions).not.toContain('current plan');
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('refuses a home that does not exist', async () => {
    await expect(buildTurnTools(context({ home: path.join(home, 'missing') }))).rejects.toMatchObject({ code: 'home_invalid' });
  });
});

describe('buildTurnTools with a control plane (embedded PGlite)', () => {
  let driver: SqlDriver;
  let plane: ControlPlane;

  beforeAll(async () => {
    driver = await createPGliteDriver();
    plane = await createControlPlane({ driver, background: false });
  }, 60_000);

  afterAll(async () => {
    await plane?.close();
    await driver?.close();
  });

  const SCHEDULES = ['schedule_create', 'schedule_list', 'schedule_cancel'];
  const JOBS = ['start_background_job', 'get_background_job', 'list_background_jobs', 'cancel_background_job'];
  const WORKFLOWS = ['workflow', 'show_workflow', 'list_workflows', 'cancel_workflow'];

  it('adds the schedule tools after the web tools, the job tools only when the turn allows jobs, then the workflow tools', async () => {
    const webProfile = { fetch: true };
    const withJobs = await buildTurnTools(context({ webProfile, controlPlane: plane.client, allowJobs: true, extraTools: [mcpEcho] }));
    expect(names(withJobs.tools)).toEqual(['todo_write', ...COMPUTER, 'web_fetch', ...SCHEDULES, ...JOBS, ...WORKFLOWS, 'echo']);
    const withoutJobs = await buildTurnTools(context({ webProfile, controlPlane: plane.client, allowJobs: false }));
    expect(names(withoutJobs.tools)).toEqual(['todo_write', ...COMPUTER, 'web_fetch', ...SCHEDULES, ...WORKFLOWS]);
  });

  it('has neither schedule, job nor workflow tools without a control plane, even when jobs are allowed', async () => {
    expect(names((await buildTurnTools(context({ allowJobs: true }))).tools)).toEqual(['todo_write', ...COMPUTER]);
  });
});

describe('buildTurnTools with skills', () => {
  it('projects the active skills into the instructions (no new tools) and reports a malformed one', async () => {
    const skills = path.join(home, '..', `${path.basename(home)}-skills`);
    await mkdir(path.join(skills, 'release-notes'), { recursive: true });
    await writeFile(
      path.join(skills, 'release-notes', 'SKILL.md'),
      '---\nname: release-notes\ndescription: Write release notes from the git log.\n---\n\nRun git log, group by type.\n',
    );
    await mkdir(path.join(skills, 'broken'));
    await writeFile(path.join(skills, 'broken', 'SKILL.md'), 'no front matter here\n');
    try {
      const plain = await buildTurnTools(context());
      const assembly = await buildTurnTools(context({ skillsDir: skills }));
      expect(names(assembly.tools)).toEqual(names(plain.tools));
      expect(plain.instructions).not.toContain('release-notes');
      expect(assembly.instructions).toContain('release-notes');
      expect(assembly.instructions).toContain('Write release notes from the git log.');
      expect(assembly.instructions).toContain('.skills/release-notes/SKILL.md');
      expect(assembly.warnings).toHaveLength(1);
      expect(assembly.warnings[0]).toMatch(/broken.*skipped: SKILL\.md must start with YAML front matter/);
    } finally {
      await rm(skills, { recursive: true, force: true });
    }
  });

  it('says "skipped" only for a skill that is left out: a clashing MCP server name keeps the skill', async () => {
    const skills = path.join(home, '..', `${path.basename(home)}-clash`);
    const skill = async (name: string) => {
      await mkdir(path.join(skills, name), { recursive: true });
      await writeFile(
        path.join(skills, name, 'SKILL.md'),
        `---\nname: ${name}\ndescription: The ${name} skill.\nmcpServers:\n  shared:\n    command: node\n    args: [server.js]\n---\n\nUse it.\n`,
      );
    };
    await skill('alpha');
    await skill('beta');
    try {
      const assembly = await buildTurnTools(context({ skillsDir: skills }));
      expect(assembly.instructions).toContain('.skills/alpha/SKILL.md');
      expect(assembly.instructions).toContain('.skills/beta/SKILL.md');
      expect(assembly.warnings).toHaveLength(1);
      expect(assembly.warnings[0]).toMatch(/^Skill "beta" \(.*beta\): MCP server "shared" is already declared by skill "alpha"/);
      expect(assembly.warnings[0]).not.toContain('skipped');
    } finally {
      await rm(skills, { recursive: true, force: true });
    }
  });
});

describe('runTextTurn', () => {
  it('runs the loop with the assembled tools and returns the events and the outcome', async () => {
    server = await startTestModelServer({
      script: [
        reply.functionCalls([
          { name: 'todo_write', arguments: { todos: [{ content: 'Write hello.txt', status: 'in_progress' }] } },
          { name: 'write_file', arguments: { path: 'hello.txt', content: 'hello\n' } },
        ]),
        reply.text('Wrote hello.txt.'),
      ],
    });
    const gateway = createOpenAIResponsesGateway({ baseURL: server.baseURL, apiKey: 'test', model: 'test-model' });
    const seen: string[] = [];
    const { outcome, events, assembly } = await runTextTurn({
      context: context(),
      gateway,
      input: 'Write hello.txt',
      onEvent: (event) => seen.push(event.type),
    });
    expect(outcome).toMatchObject({ reason: 'completed', steps: 2, toolCalls: 2, text: 'Wrote hello.txt.' });
    expect(events.map((event) => event.type)).toEqual(seen);
    expect(events.find((event) => event.type === 'presentation')).toMatchObject({
      event: { kind: 'checklist', items: [{ content: 'Write hello.txt', status: 'in_progress' }] },
    });
    expect(server.requests[0]?.body.instructions).toBe(assembly.instructions);
    expect(server.requests[0]?.body.tools.map((tool: { name: string }) => tool.name)).toEqual(names(assembly.tools));
  });
});
