import type { ClosedSchemaChecker } from './closed-result-schema.js';

const MAX_TITLE = 200;
const MAX_PROMPT = 20_000;

/**
 * Checks a `task()` argument: `{ title, prompt, result }` with a closed result schema. Returns the problem (`schema`:
 * the result schema's, naming each path) or `undefined`. Every advance checks every new call this way, so a task
 * whose schema no worker's `submit_result` could send is never queued.
 */
export function checkTaskSpec(spec: unknown, schemas: ClosedSchemaChecker, resultText: string | undefined): { error: string; schema: boolean } | undefined {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return { error: 'task() takes one object: { title, prompt, result }.', schema: false };
  const { title, prompt, result } = spec as Record<string, unknown>;
  if (typeof title !== 'string' || title.trim() === '' || title.length > MAX_TITLE) {
    return { error: `task(): title must be a non-empty string of at most ${MAX_TITLE} characters.`, schema: false };
  }
  if (typeof prompt !== 'string' || prompt.trim() === '' || prompt.length > MAX_PROMPT) {
    return { error: `task(): prompt must be a non-empty string of at most ${MAX_PROMPT} characters.`, schema: false };
  }
  const issues = schemas.check(result, resultText);
  if (issues.length === 0) return undefined;
  const listed = issues.slice(0, 5).map((issue) => `at ${issue.path}: ${issue.message.replace(/\.$/, '')}`);
  const more = issues.length > 5 ? `; and ${issues.length - 5} more` : '';
  return { error: `task() "${title}": the result schema is not a closed schema (${listed.join('; ')}${more}), so no worker could submit its result; fix it in the script.`, schema: true };
}
