import type { TodoItem } from './todo-item.js';

const MARKS = { pending: '[ ]', in_progress: '[>]', completed: '[x]' } as const;

/** How far a plan is: `{ done, total }`. */
export function todoProgress(items: readonly { status: TodoItem['status'] }[]): { done: number; total: number } {
  return { done: items.filter((item) => item.status === 'completed').length, total: items.length };
}

/** The plan as plain text lines (`[x] 1. Write the notes`), the way the model and a log see it. */
export function formatTodoList(items: readonly TodoItem[]): string {
  if (items.length === 0) return '(the plan is empty)';
  return items.map((item) => `${MARKS[item.status]} ${item.id}. ${item.content}`).join('\n');
}
