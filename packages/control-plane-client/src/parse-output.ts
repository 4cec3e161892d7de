import type { z } from 'zod';
import { ControlPlaneOutputError } from './errors.js';

/** `$`, `$.tasks[2].createdAt`, `$["odd key"]`: a zod issue path as a JSON path. */
export function outputPath(path: readonly PropertyKey[]): string {
  let text = '$';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) text += `.${key}`;
    else text += `[${JSON.stringify(String(key))}]`;
  }
  return text;
}

/**
 * Checks a call's result against its output schema and returns it as parsed (keys the schema does not name are
 * dropped). `from` says whose result it is, for the message: `the control plane` (a client checking an answer) or
 * `this control plane` (the server checking before it sends).
 * @throws ControlPlaneOutputError naming the call, the path of the first bad field and each problem.
 */
export function parseOutput<TSchema extends z.ZodType>(schema: TSchema, value: unknown, method: string, from: string): z.output<TSchema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const problems = issues.slice(0, 5).map((issue) => `${outputPath(issue.path)}: ${issue.message}`);
  const path = outputPath(issues[0]?.path ?? []);
  throw new ControlPlaneOutputError(
    method,
    path,
    `The result of ${method} from ${from} does not match its schema at ${path}: ${problems.join('; ')}${issues.length > 5 ? `; and ${issues.length - 5} more` : ''}.`,
  );
}
