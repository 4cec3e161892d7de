import type OpenAI from 'openai';
import type { ToolContent } from './worker-agent-tool.js';

/** The `function_call_output` item sent back for a call. */
export type FunctionCallOutputItem = OpenAI.Responses.ResponseInputItem.FunctionCallOutput;

/** Longest error text (in characters) put into an error output; longer messages are cut with a marker. */
export const MAX_ERROR_OUTPUT_LENGTH = 4000;

/** The text every error output starts with, so the model (and a reader of the history) can tell them apart. */
export const ERROR_OUTPUT_PREFIX = 'Error: ';

/** The output of a call that had not finished when the turn was cancelled. */
export const ABORTED_OUTPUT = `${ERROR_OUTPUT_PREFIX}tool call aborted: the turn was cancelled before this call finished.`;

/** The `function_call_output` item carrying a tool's content (a string or input_text / input_image parts). */
export function toolOutputItem(callId: string, content: ToolContent): FunctionCallOutputItem {
  return { type: 'function_call_output', call_id: callId, output: content as FunctionCallOutputItem['output'] };
}

/**
 * The `function_call_output` item for a failed call: a plain string `Error: <message>`, capped at
 * `MAX_ERROR_OUTPUT_LENGTH` characters.
 */
export function errorOutputItem(callId: string, message: string): FunctionCallOutputItem {
  return { type: 'function_call_output', call_id: callId, output: errorOutputText(message) };
}

/** `Error: <message>`, capped; a message that already starts with `Error: ` is not prefixed twice. */
export function errorOutputText(message: string): string {
  const text = message.startsWith(ERROR_OUTPUT_PREFIX) ? message : ERROR_OUTPUT_PREFIX + message;
  return text.length <= MAX_ERROR_OUTPUT_LENGTH ? text : `${text.slice(0, MAX_ERROR_OUTPUT_LENGTH)}… [truncated]`;
}

/** Whether `content` is something a `function_call_output` can carry: a string or an array of input_text / input_image parts. */
export function isToolContent(content: unknown): content is ToolContent {
  if (typeof content === 'string') return true;
  if (!Array.isArray(content)) return false;
  for (const part of content) {
    if (typeof part !== 'object' || part === null) return false;
    const type = (part as { type?: unknown }).type;
    if (type === 'input_text') {
      if (typeof (part as { text?: unknown }).text !== 'string') return false;
    } else if (type === 'input_image') {
      if (typeof (part as { image_url?: unknown }).image_url !== 'string') return false;
    } else {
      return false;
    }
  }
  return true;
}
