import { defineWorkerTool, type WorkerAgentTool } from '@core/runtime';
import { formatTodoList, todoProgress } from './format-todo-list.js';
import { todoParametersSchema, type TodoItem, type TodoParameters } from './todo-item.js';
import { createFileTodoStore, type TodoStore } from './todo-store.js';

/** Where the todo tool keeps the plan: an agent home (`<home>/.ankole/todos.json`) or a store of your own. */
export type TodoToolContext = { home: string; store?: undefined } | { store: TodoStore; home?: undefined };

/** The most items a plan may hold. */
export const MAX_TODO_ITEMS = 50;

/** The longest item, in characters: the plan goes into every later turn's instructions, so it stays short. */
export const MAX_TODO_CONTENT_LENGTH = 500;

/** What the todo tool returns besides its text: the plan as saved. */
export interface TodoToolDetails {
  items: TodoItem[];
}

/**
 * Creates the `todo_write` tool: the model keeps a short plan of its work, sending the whole list each
 * call (at most one item `in_progress`). The plan is stored per agent (so it survives the turn), and
 * each update is also a `checklist` presentation event for the UI. Invalid lists come back as error
 * outputs the model can correct. Sequential: one plan update at a time.
 */
export function createTodoTool(context: TodoToolContext): WorkerAgentTool<TodoParameters, TodoToolDetails> {
  const store = context.store ?? createFileTodoStore({ home: context.home });
  return defineWorkerTool<typeof todoParametersSchema, TodoToolDetails>({
    name: 'todo_write',
    description:
      'Keep a short plan of your work as a todo list. Send the whole list every time (it replaces the previous one): ' +
      'each item has content and a status (pending, in_progress, completed); keep exactly one item in_progress while ' +
      'you work and mark items completed as soon as they are done. Use it for tasks with three or more steps.',
    schema: todoParametersSchema,
    executionMode: 'sequential',
    isReadOnly: false,
    isDestructive: false,
    describeActivity: (params) => progressLabel('Updating plan', params.todos),
    describeCompletedActivity: (params, result) =>
      result.isError ? 'Plan update refused' : progressLabel('Updated plan', result.details?.items ?? params.todos),
    async execute(params) {
      const problem = findProblem(params);
      if (problem !== undefined) {
        return { content: `The plan was not saved: ${problem} Send the whole corrected list again.`, isError: true };
      }
      const previous = await store.load().catch(() => [] as TodoItem[]);
      const items = assignIds(params, previous);
      await store.save(items);
      const { done, total } = todoProgress(items);
      return {
        content: `Plan saved (${done}/${total} done):\n${formatTodoList(items)}`,
        details: { items },
        presentation: [{ kind: 'checklist', title: 'Plan', items }],
      };
    },
  });
}

function progressLabel(verb: string, items: readonly { status: TodoItem['status'] }[]): string {
  const { done, total } = todoProgress(items);
  return `${verb} (${done}/${total} done)`;
}

function findProblem(params: TodoParameters): string | undefined {
  const { todos } = params;
  if (todos.length > MAX_TODO_ITEMS) return `the list has ${todos.length} items; keep it to at most ${MAX_TODO_ITEMS}.`;
  const empty = todos.findIndex((item) => item.content.trim() === '');
  if (empty !== -1) return `item ${empty} (todos[${empty}]) has empty content.`;
  const long = todos.findIndex((item) => item.content.trim().length > MAX_TODO_CONTENT_LENGTH);
  if (long !== -1) {
    return `todos[${long}] is ${todos[long]?.content.trim().length} characters long; keep each item to one short sentence (at most ${MAX_TODO_CONTENT_LENGTH}).`;
  }
  const inProgress = todos.flatMap((item, index) => (item.status === 'in_progress' ? [index] : []));
  if (inProgress.length > 1) {
    return `${inProgress.length} items are in_progress (todos[${inProgress.join('], todos[')}]); at most one may be in_progress.`;
  }
  const seen = new Set<string>();
  for (const [index, item] of todos.entries()) {
    if (item.id === undefined) continue;
    const id = item.id.trim();
    if (id === '') return `todos[${index}] has an empty id; omit the id for a new item.`;
    if (seen.has(id)) return `the id "${id}" is used twice (again at todos[${index}]); ids must be unique.`;
    seen.add(id);
  }
  return undefined;
}

/** Keeps the ids the model sent, reuses a previous item's id for the same content, numbers the rest. */
function assignIds(params: TodoParameters, previous: readonly TodoItem[]): TodoItem[] {
  const used = new Set(params.todos.flatMap((item) => (item.id === undefined ? [] : [item.id.trim()])));
  const reusable = new Map<string, string>();
  for (const item of previous) {
    const key = item.content.trim();
    if (!used.has(item.id) && !reusable.has(key)) reusable.set(key, item.id);
  }
  let next = 1 + Math.max(0, ...[...used, ...previous.map((item) => item.id)].map(Number).filter(Number.isInteger));
  return params.todos.map((item) => {
    const content = item.content.trim();
    let id = item.id?.trim();
    if (id === undefined) {
      id = reusable.get(content);
      if (id !== undefined) reusable.delete(content);
      else {
        while (used.has(String(next))) next += 1;
        id = String(next);
        next += 1;
      }
      used.add(id);
    }
    return { id, content, status: item.status };
  });
}
