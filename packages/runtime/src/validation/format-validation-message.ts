import { jsonPathChild } from '../json.js';

/** One problem with the arguments, at a path inside them. */
export interface ValidationIssue {
  /** Keys and array indexes from the root of the arguments. */
  path: ReadonlyArray<string | number>;
  /** What was expected ("expected string", "missing required property"). */
  message: string;
  /** Add what was received at `path` ("received number 42"). */
  showReceived?: boolean;
}

/** Most issues listed in one message. */
export const MAX_LISTED_ISSUES = 5;
/** Most characters of the received arguments quoted back. */
export const MAX_RECEIVED_CHARS = 200;

const CLOSING = 'Fix the arguments and call the tool again.';

/** `['items', 2, 'name']` → `$.items[2].name`. */
export function formatJsonPath(path: ReadonlyArray<string | number>): string {
  let out = '$';
  for (const segment of path) out = jsonPathChild(out, segment);
  return out;
}

/** A short description of a value for a message: `number 42`, `string "abc"`, `array of 3`, `object`, `null`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array of ${value.length}`;
  switch (typeof value) {
    case 'string':
      return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`;
    default:
      return 'object';
  }
}

/** The first `MAX_RECEIVED_CHARS` characters of the arguments as received, with the total when cut. */
export function receivedPrefix(argumentsText: string): string {
  if (argumentsText.trim() === '') return 'Received: (empty)';
  if (argumentsText.length <= MAX_RECEIVED_CHARS) return `Received: ${argumentsText}`;
  return `Received (first ${MAX_RECEIVED_CHARS} of ${argumentsText.length} characters): ${argumentsText.slice(0, MAX_RECEIVED_CHARS)}…`;
}

/** The message for arguments that parsed but do not match the schema: each issue with its path, then what was received. */
export function formatIssuesMessage(options: {
  toolName: string;
  issues: readonly ValidationIssue[];
  value: unknown;
  argumentsText: string;
  /** A sentence about the repairs tried ("The input was cut off; only its complete part was checked."). */
  note?: string | undefined;
}): string {
  const { issues } = options;
  const lines = [`Invalid arguments for tool "${options.toolName}": ${issues.length} problem${issues.length === 1 ? '' : 's'}.`];
  for (const issue of issues.slice(0, MAX_LISTED_ISSUES)) lines.push(`- ${formatIssue(issue, options.value)}`);
  if (issues.length > MAX_LISTED_ISSUES) lines.push(`- … and ${issues.length - MAX_LISTED_ISSUES} more`);
  if (options.note !== undefined) lines.push(options.note);
  lines.push(receivedPrefix(options.argumentsText), CLOSING);
  return lines.join('\n');
}

/** The message for arguments that are not a JSON object at all (syntax, size, depth, root type). */
export function formatUnreadableMessage(options: { toolName: string; problem: string; argumentsText: string | undefined }): string {
  const lines = [`Invalid arguments for tool "${options.toolName}": ${options.problem}`];
  if (options.argumentsText !== undefined) lines.push(receivedPrefix(options.argumentsText));
  lines.push(`Send the arguments as one JSON object matching the tool's parameters. ${CLOSING}`);
  return lines.join('\n');
}

function formatIssue(issue: ValidationIssue, root: unknown): string {
  const where = formatJsonPath(issue.path);
  const received = valueAt(root, issue.path);
  if (issue.showReceived === true) {
    if (received.found) return `${where}: ${issue.message}, received ${describeValue(received.value)}`;
    return `${where}: missing required property (${issue.message})`;
  }
  return `${where}: ${issue.message}`;
}

function valueAt(root: unknown, path: ReadonlyArray<string | number>): { found: boolean; value: unknown } {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return { found: false, value: undefined };
    node = (node as Record<string | number, unknown>)[key];
  }
  return { found: node !== undefined, value: node };
}
