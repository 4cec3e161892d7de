import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createOpenAIResponsesGateway, runAgentLoop, type AgentEvent } from '@core/runtime';
import { functionCallOutputs, reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTodoTool } from './create-todo-tool.js';
import { createFileTodoStore } from './todo-store.js';

let home: string;
let server: TestModelServer | undefined;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'ankole-todo-turn-'));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(home, { recursive: true, force: true });
});

describe('todo_write in a turn (runAgentLoop over the testkit)', () => {
  it('saves the plan, shows it as a checklist, and returns an invalid list to the model as an error it can fix', async () => {
    server = await startTestModelServer({
      script: [
        reply.functionCalls([
          {
            name: 'todo_write',
            callId: 'call_bad',
            arguments: { todos: [{ content: 'Draft', status: 'in_progress' }, { content: 'Review', status: 'in_progress' }] },
          },
        ]),
        reply.functionCalls([
          {
            name: 'todo_write',
            callId: 'call_good',
            arguments: { todos: [{ content: 'Draft', status: 'completed' }, { content: 'Review', status: 'in_progress' }] },
          },
        ]),
        reply.text('Planned.'),
      ],
    });
    const gateway = createOpenAIResponsesGateway({ baseURL: server.baseURL, apiKey: 'test', model: 'test-model' });
    const events: AgentEvent[] = [];
    const result = await runAgentLoop({ gateway, tools: [createTodoTool({ home })], input: 'Plan it', onEvent: (event) => events.push(event) });

    expect(result.reason).toBe('completed');
    const [, second, third] = server.requests;
    expect(String(functionCallOutputs(second!)[0]?.output)).toContain('at most one may be in_progress');
    expect(String(functionCallOutputs(third!).at(-1)?.output)).toBe('Plan saved (1/2 done):\n[x] 1. Draft\n[>] 2. Review');
    const completed = events.filter((event) => event.type === 'activity.completed');
    expect(completed.map((event) => [event.label, event.status])).toEqual([
      ['Plan update refused', 'error'],
      ['Updated plan (1/2 done)', 'success'],
    ]);
    const checklists = events.filter((event) => event.type === 'presentation');
    expect(checklists).toHaveLength(1);
    expect(checklists[0]).toMatchObject({ toolName: 'todo_write', event: { kind: 'checklist', items: [{ status: 'completed' }, { status: 'in_progress' }] } });
    expect(await createFileTodoStore({ home }).load()).toHaveLength(2);
  });
});
