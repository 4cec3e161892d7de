import type { ResponseInputItem } from '../gateway/model-gateway.js';

type Item = Record<string, unknown>;

/** Item types that answer a client-executed call (each carries the call's `call_id`). */
const OUTPUT_TYPES = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'apply_patch_call_output',
  'shell_call_output',
  'local_shell_call_output',
  'computer_call_output',
  'tool_search_output',
]);

/** Whether `item` is a call's output (a `function_call_output` or one of its kin). */
export function isCallOutput(item: ResponseInputItem): boolean {
  return OUTPUT_TYPES.has(String((item as unknown as Item).type));
}

/** Whether `item` is a message from the user (an easy message without `type`, or a `message` item). */
export function isUserMessage(item: ResponseInputItem): boolean {
  const record = item as unknown as Item;
  return record.role === 'user' && (record.type === undefined || record.type === 'message');
}

function callIdOf(item: ResponseInputItem): string | undefined {
  const record = item as unknown as Item;
  return typeof record.call_id === 'string' ? record.call_id : undefined;
}

/**
 * Where the most recent step of a history begins: the output items of the last response and the outputs that answer
 * its calls, or, when the history ends with a user message, that message. Everything from there on is the recent
 * tail, which a compactor keeps intact (the model has not seen those outputs yet). The index never splits a call from
 * its output: every output in the tail answers a call in the tail. Returns `items.length` when there is no such step.
 */
export function recentTailStart(items: readonly ResponseInputItem[]): number {
  let start = items.length;
  while (start > 0 && isCallOutput(items[start - 1] as ResponseInputItem)) start -= 1;
  if (start === items.length) {
    // No trailing outputs: keep the last user message (and what follows it).
    for (let index = items.length - 1; index >= 0; index -= 1) if (isUserMessage(items[index] as ResponseInputItem)) return index;
    return items.length;
  }
  const answered = new Set(
    items
      .slice(start)
      .map(callIdOf)
      .filter((id): id is string => id !== undefined),
  );
  let first = start;
  for (let index = start - 1; index >= 0; index -= 1) {
    const id = callIdOf(items[index] as ResponseInputItem);
    if (id !== undefined && answered.has(id) && !isCallOutput(items[index] as ResponseInputItem)) first = index;
  }
  // The rest of that response's output (reasoning, messages) sits just before its first call.
  while (first > 0) {
    const previous = items[first - 1] as ResponseInputItem;
    if (isCallOutput(previous) || isUserMessage(previous)) break;
    first -= 1;
  }
  return first;
}
