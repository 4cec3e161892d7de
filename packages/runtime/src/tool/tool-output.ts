import type OpenAI from 'openai';
import type { ToolContent } from './worker-agent-tool.js';

/** The `function_call_output` item sent back for a call. */
export type FunctionCallOutputItem = OpenAI.Responses.ResponseInputItem.FunctionCallOutput;

/** Longest error text (in characters) put into an error output; longer messages are cut with a marker. */
export const MAX_ERROR_OUTPUT_LENGTH = 4000;

/** The text every error output starts with, so the model (and a reader of the history) can tell them apart. */
export const ERROR_OUTPUT_PREFIX = 'Error: ';

/**
 * The output of a call the turn's abort stopped, in one sentence for the model and the person: which tool, whether it
 * had started, and why: the signal's reason when it carries a message of its own (`The job was cancelled.`, `The
 * turn was interrupted (Ctrl-C).`), else "the turn was cancelled".
 */
export function abortedOutputText(options: { toolName: string; started: boolean; stop?: { reason?: unknown } | undefined }): string {
  const why = abortReasonText(options.stop);
  return options.started
    ? `${ERROR_OUTPUT_PREFIX}${options.toolName} was stopped before it finished because ${why}; anything it did until then stays done.`
    : `${ERROR_OUTPUT_PREFIX}${options.toolName} was not run because ${why}.`;
}

/** The reason an abort signal carries, as the end of a sentence ("the job was cancelled"); "the turn was cancelled" when it has none. */
function abortReasonText(stop: { reason?: unknown } | undefined): string {
  const reason: unknown = stop?.reason;
  const message = reason instanceof Error || reason instanceof DOMException ? reason.message : typeof reason === 'string' ? reason : '';
  const text = message.trim().replace(/\.+$/, '');
  // The default reason of `AbortController.abort()` says nothing about why.
  if (text === '' || /^this operation was aborted$/i.test(text) || /^the operation was aborted$/i.test(text)) return 'the turn was cancelled';
  // "The job was cancelled" → "the job was cancelled" (but "HTTP …" keeps its capitals).
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

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
