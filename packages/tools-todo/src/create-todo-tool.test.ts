import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validateToolArguments } from '@core/runtime';
import { createTodoTool, MAX_TODO_CONTENT_LENGTH, MAX_TODO_ITEMS } from './create-todo-tool.js';
import { createFileTodoStore, todoFilePath } from './todo-store.js';
import type { TodoParameters } from './todo-item.js';

let home: string;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'ankole-todo-'));
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

function call(tool: ReturnType<typeof createTodoTool>, params: TodoParameters) {
  return tool.execute(params, { signal: new AbortController().signal, callId: 'c1', toolName: tool.name });
}

const plan: TodoParameters = {
  todos: [
    { content: 'Read the notes', status: 'completed' },
    { content: 'Write the summary', status: 'in_progress' },
    { content: 'Check the word count', status: 'pending' },
  ],
};

describe('createTodoTool', () => {
  it('is a sequential tool named todo_write whose label counts what is done', () => {
    const tool = createTodoTool({ home });
    expect(tool.name).toBe('todo_write');
    expect(tool.executionMode).toBe('sequential');
    expect(tool.describeActivity(plan)).toBe('Updating plan (1/3 done)');
  });

  it('saves the whole list in the home, numbers the items and emits a checklist', async () => {
    const tool = createTodoTool({ home });
    const result = await call(tool, plan);
    expect(result.isError).toBeUndefined();
    const items = [
      { id: '1', content: 'Read the notes', status: 'completed' },
      { id: '2', content: 'Write the summary', status: 'in_progress' },
      { id: '3', content: 'Check the word count', status: 'pending' },
    ];
    expect(result.presentation).toEqual([{ kind: 'checklist', title: 'Plan', items }]);
    expect(result.content).toBe('Plan saved (1/3 done):\n[x] 1. Read the notes\n[>] 2. Write the summary\n[ ] 3. Check the word count');
    expect(JSON.parse(await readFile(todoFilePath(home), 'utf8'))).toEqual({ version: 1, items });
    expect(tool.describeCompletedActivity?.(plan, result)).toBe('Updated plan (1/3 done)');
  });

  it('keeps the plan across tool instances (turns) and keeps ids for the same items', async () => {
    await call(createTodoTool({ home }), plan);
    const nextTurn = createTodoTool({ home });
    const result = await call(nextTurn, {
      todos: [
        { content: 'Check the word count', status: 'in_progress' },
        { id: '1', content: 'Read the notes', status: 'completed' },
        { content: 'Send it', status: 'pending' },
      ],
    });
    expect(result.details?.items.map((item) => item.id)).toEqual(['3', '1', '4']);
    expect((await createFileTodoStore({ home }).load()).map((item) => item.content)).toEqual([
      'Check the word count',
      'Read the notes',
      'Send it',
    ]);
  });

  it('refuses two items in progress with an error the model can act on, and keeps the old plan', async () => {
    const tool = createTodoTool({ home });
    await call(tool, plan);
    const result = await call(tool, {
      todos: [
        { content: 'a', status: 'in_progress' },
        { content: 'b', status: 'in_progress' },
      ],
    });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('at most one may be in_progress');
    expect(result.content).toContain('todos[0], todos[1]');
    expect(tool.describeCompletedActivity?.(plan, result)).toBe('Plan update refused');
    expect(await createFileTodoStore({ home }).load()).toHaveLength(3);
  });

  it('refuses empty content and duplicate ids', async () => {
    const tool = createTodoTool({ home });
    const empty = await call(tool, { todos: [{ content: '  ', status: 'pending' }] });
    expect(empty.content).toContain('todos[0]) has empty content');
    const duplicate = await call(tool, {
      todos: [
        { id: 'a', content: 'x', status: 'pending' },
        { id: 'a', content: 'y', status: 'pending' },
      ],
    });
    expect(duplicate.isError).toBe(true);
    expect(duplicate.content).toContain('"a" is used twice');
  });

  it('refuses more than MAX_TODO_ITEMS items and an item longer than MAX_TODO_CONTENT_LENGTH (the plan goes into later instructions)', async () => {
    const tool = createTodoTool({ home });
    const many = await call(tool, { todos: Array.from({ length: MAX_TODO_ITEMS + 1 }, (_, index) => ({ content: `step ${index}`, status: 'pending' as const })) });
    expect(many.isError).toBe(true);
    expect(many.content).toContain(`the list has ${MAX_TODO_ITEMS + 1} items; keep it to at most ${MAX_TODO_ITEMS}.`);
    const long = await call(tool, { todos: [{ content: 'ok', status: 'pending' }, { content: 'x'.repeat(MAX_TODO_CONTENT_LENGTH + 1), status: 'pending' }] });
    expect(long.isError).toBe(true);
    expect(long.content).toContain(`todos[1] is ${MAX_TODO_CONTENT_LENGTH + 1} characters long`);
    expect(await createFileTodoStore({ home }).load()).toEqual([]);
  });

  it('rejects a list that does not match the schema (an unknown status) before execute', () => {
    const tool = createTodoTool({ home });
    const result = validateToolArguments(tool, '{"todos":[{"content":"x","status":"done"}]}');
    expect(result.ok).toBe(false);
  });

  it('writes atomically: no temporary file is left behind', async () => {
    const tool = createTodoTool({ home });
    await Promise.all([call(tool, plan), call(tool, plan)]);
    expect(await readdir(path.join(home, '.ankole'))).toEqual(['todos.json']);
  });

  it('overwrites a corrupt plan file instead of failing', async () => {
    await mkdir(path.join(home, '.ankole'));
    await writeFile(todoFilePath(home), '{not json');
    await expect(createFileTodoStore({ home }).load()).rejects.toThrow(/not valid JSON/);
    const result = await call(createTodoTool({ home }), plan);
    expect(result.isError).toBeUndefined();
    expect(await createFileTodoStore({ home }).load()).toHaveLength(3);
  });

  it('uses a store given instead of a home', async () => {
    const saved: unknown[] = [];
    const tool = createTodoTool({ store: { load: async () => [], save: async (items) => void saved.push(items) } });
    await call(tool, plan);
    expect(saved).toHaveLength(1);
  });
});
