import type { RecordedRequest } from './step-reply.js';

/** A `function_call_output` item as a client sends it. */
export interface FunctionCallOutputItem {
  type: 'function_call_output';
  call_id: string;
  output: string | Array<Record<string, unknown>>;
  [key: string]: unknown;
}

function inputItems(request: RecordedRequest): Array<Record<string, unknown>> {
  const input: unknown = request.body?.input;
  if (!Array.isArray(input)) return [];
  return input.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null);
}

/** The `function_call_output` items of a recorded request's `input`, in order (empty when there are none). */
export function functionCallOutputs(request: RecordedRequest): FunctionCallOutputItem[] {
  return inputItems(request).filter((item) => item.type === 'function_call_output') as FunctionCallOutputItem[];
}

/** The text of the last user message of a recorded request's `input` (the string itself when `input` is a string). */
export function lastUserText(request: RecordedRequest): string | undefined {
  const input: unknown = request.body?.input;
  if (typeof input === 'string') return input;
  const users = inputItems(request).filter((item) => item.role === 'user' && (item.type === undefined || item.type === 'message'));
  const last = users.at(-1);
  if (last === undefined) return undefined;
  if (typeof last.content === 'string') return last.content;
  if (!Array.isArray(last.content)) return undefined;
  return last.content
    .filter((part: { type?: unknown; text?: unknown }) => part.type === 'input_text' && typeof part.text === 'string')
    .map((part: { text: string }) => part.text)
    .join('');
}
