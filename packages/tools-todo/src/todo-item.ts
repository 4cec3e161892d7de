import { z } from 'zod';

/** The states a plan item can be in. At most one item is `in_progress` at a time. */
export const TODO_STATUSES = ['pending', 'in_progress', 'completed'] as const;

/** The state of a plan item. */
export type TodoStatus = (typeof TODO_STATUSES)[number];

/** One item of the plan, as stored and shown. */
export interface TodoItem {
  /** Stable id: kept when the model sends it, otherwise reused by content or assigned. */
  id: string;
  /** What the step is, in a short sentence. */
  content: string;
  status: TodoStatus;
}

/** The todo tool's parameters: the whole list, every call. */
export const todoParametersSchema = z.object({
  todos: z
    .array(
      z.object({
        id: z.string().optional().describe('The item id from the previous list; omit for a new item.'),
        content: z.string().describe('The step, in a short imperative sentence.'),
        status: z.enum(TODO_STATUSES).describe('pending, in_progress (at most one item) or completed.'),
      }),
    )
    .describe('The whole plan, in order. Send every item each time, not only the changed ones.'),
});

/** The todo tool's validated parameters. */
export type TodoParameters = z.output<typeof todoParametersSchema>;
