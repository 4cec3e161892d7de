import { StrictSchemaError, ToolDefinitionError } from '@core/runtime';

/** Most schema problems a task's error lists (the rest are counted). */
const MAX_LISTED = 5;

/**
 * The error a task is failed with when its turn could not run at all (the tool set could not be built, the agent has
 * no home, ...). When the task's own `submit_result` refused its stored result schema (a `ToolDefinitionError` of that
 * tool: strict mode cannot express it, or it is no object schema), the error says so in words with each path, e.g.
 * `Its result schema cannot be used by submit_result (at $: objects must set "additionalProperties": false ...); …`;
 * anything else reads `The task turn could not run: <message>`.
 */
export function taskTurnFailure(error: unknown): string {
  if (error instanceof ToolDefinitionError && error.toolName === 'submit_result') {
    const issues = error.cause instanceof StrictSchemaError ? error.cause.issues : [{ path: error.path ?? '$', message: error.message.replace(/^Tool "submit_result"( at \S+)?: /, '') }];
    const listed = issues.slice(0, MAX_LISTED).map((issue) => `at ${issue.path}: ${issue.message.replace(/\.$/, '')}`);
    const more = issues.length > MAX_LISTED ? `; and ${issues.length - MAX_LISTED} more` : '';
    return `Its result schema cannot be used by submit_result, so no result could be submitted (${listed.join('; ')}${more}); fix the schema in the workflow script's task() call as each problem says.`;
  }
  return `The task turn could not run: ${error instanceof Error ? error.message : String(error)}`;
}
