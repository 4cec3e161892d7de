export { createTodoTool, MAX_TODO_CONTENT_LENGTH, MAX_TODO_ITEMS } from './create-todo-tool.js';
export type { TodoToolContext, TodoToolDetails } from './create-todo-tool.js';
export { createFileTodoStore, todoFilePath, TodoStoreError } from './todo-store.js';
export type { FileTodoStoreOptions, TodoStore } from './todo-store.js';
export { TODO_STATUSES, todoParametersSchema } from './todo-item.js';
export type { TodoItem, TodoParameters, TodoStatus } from './todo-item.js';
export { formatTodoList, todoProgress } from './format-todo-list.js';
