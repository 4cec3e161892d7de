import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { RuntimeFailure } from '@core/runtime';
import { TODO_STATUSES, type TodoItem } from './todo-item.js';

/** Where an agent's plan is kept. */
export interface TodoStore {
  /**
   * The stored plan (`[]` when there is none yet).
   * @throws TodoStoreError when the stored plan cannot be read or is not a valid plan.
   */
  load(): Promise<TodoItem[]>;
  /**
   * Replaces the stored plan.
   * @throws TodoStoreError when it cannot be written.
   */
  save(items: readonly TodoItem[]): Promise<void>;
}

/** The plan file could not be read, parsed or written. */
export class TodoStoreError extends RuntimeFailure {
  readonly path: string;

  constructor(message: string, filePath: string, options: { cause?: unknown } = {}) {
    super('todo_store_failed', message, options);
    this.path = filePath;
  }
}

/** Options of `createFileTodoStore`. */
export interface FileTodoStoreOptions {
  /** The agent's home folder; the plan lives in `<home>/.ankole/todos.json`. */
  home: string;
}

/** The path of the plan file inside an agent home. */
export function todoFilePath(home: string): string {
  return path.join(home, '.ankole', 'todos.json');
}

/**
 * A `TodoStore` in `<home>/.ankole/todos.json`. Writes are atomic (a temporary file renamed over the
 * old one), so a reader never sees a half-written plan.
 */
export function createFileTodoStore(options: FileTodoStoreOptions): TodoStore {
  const file = todoFilePath(options.home);
  return {
    async load() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw new TodoStoreError(`Could not read the plan file ${file}: ${(error as Error).message}`, file, { cause: error });
      }
      return parseStoredPlan(text, file);
    },
    async save(items) {
      const folder = path.dirname(file);
      const temporary = path.join(folder, `.todos.${process.pid}.${randomUUID()}.tmp`);
      try {
        await mkdir(folder, { recursive: true });
        await writeFile(temporary, `${JSON.stringify({ version: 1, items }, null, 2)}\n`, 'utf8');
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true }).catch(() => undefined);
        throw new TodoStoreError(`Could not write the plan file ${file}: ${(error as Error).message}`, file, { cause: error });
      }
    },
  };
}

function parseStoredPlan(text: string, file: string): TodoItem[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TodoStoreError(`The plan file ${file} is not valid JSON; delete it to start a new plan.`, file, { cause: error });
  }
  const items = (value as { items?: unknown } | null)?.items;
  if (!Array.isArray(items) || !items.every(isTodoItem)) {
    throw new TodoStoreError(`The plan file ${file} does not hold a plan ({ "items": [...] }); delete it to start a new plan.`, file);
  }
  return items.map((item) => ({ id: item.id, content: item.content, status: item.status }));
}

function isTodoItem(value: unknown): value is TodoItem {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Record<string, unknown>;
  return (
    typeof item.id === 'string' &&
    typeof item.content === 'string' &&
    (TODO_STATUSES as readonly unknown[]).includes(item.status)
  );
}
