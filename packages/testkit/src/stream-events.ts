import type { ResponseObject } from './build-response.js';

/** One server-sent event of a Responses stream (without its `sequence_number`, added when it is written). */
export type StreamEvent = { type: string } & Record<string, unknown>;

/** Splits text into at most `parts` non-empty chunks without breaking code points. */
export function splitIntoChunks(text: string, parts = 3): string[] {
  const characters = Array.from(text);
  if (characters.length === 0) return [];
  const size = Math.max(1, Math.ceil(characters.length / parts));
  const chunks: string[] = [];
  for (let start = 0; start < characters.length; start += size) chunks.push(characters.slice(start, start + size).join(''));
  return chunks;
}

/** The response as it looks while in progress: no output yet, no usage. */
function inProgressSnapshot(response: ResponseObject): ResponseObject {
  const { usage: _usage, ...rest } = response;
  return { ...rest, status: 'in_progress', completed_at: null, error: null, incomplete_details: null, output: [] };
}

function itemEvents(item: Record<string, unknown>, outputIndex: number): StreamEvent[] {
  const id = item.id as string;
  const events: StreamEvent[] = [];
  if (item.type === 'message') {
    const content = Array.isArray(item.content) ? (item.content as Array<Record<string, unknown>>) : [];
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } });
    content.forEach((part, contentIndex) => {
      const base = { item_id: id, output_index: outputIndex, content_index: contentIndex };
      if (part.type === 'output_text') {
        const text = String(part.text ?? '');
        events.push({ type: 'response.content_part.added', ...base, part: { ...part, text: '' } });
        for (const delta of splitIntoChunks(text)) events.push({ type: 'response.output_text.delta', ...base, delta, logprobs: [] });
        events.push({ type: 'response.output_text.done', ...base, text, logprobs: [] });
      } else if (part.type === 'refusal') {
        const refusal = String(part.refusal ?? '');
        events.push({ type: 'response.content_part.added', ...base, part: { ...part, refusal: '' } });
        for (const delta of splitIntoChunks(refusal)) events.push({ type: 'response.refusal.delta', ...base, delta });
        events.push({ type: 'response.refusal.done', ...base, refusal });
      } else {
        events.push({ type: 'response.content_part.added', ...base, part });
      }
      events.push({ type: 'response.content_part.done', ...base, part });
    });
  } else if (item.type === 'function_call') {
    const argumentsText = String(item.arguments ?? '');
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } });
    for (const delta of splitIntoChunks(argumentsText)) {
      events.push({ type: 'response.function_call_arguments.delta', item_id: id, output_index: outputIndex, delta });
    }
    events.push({
      type: 'response.function_call_arguments.done',
      item_id: id,
      name: item.name,
      output_index: outputIndex,
      arguments: argumentsText,
    });
  } else if (item.type === 'custom_tool_call') {
    const input = String(item.input ?? '');
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress', input: '' } });
    for (const delta of splitIntoChunks(input)) {
      events.push({ type: 'response.custom_tool_call_input.delta', item_id: id, output_index: outputIndex, delta });
    }
    events.push({ type: 'response.custom_tool_call_input.done', item_id: id, output_index: outputIndex, input });
  } else if (item.type === 'reasoning') {
    const summary = Array.isArray(item.summary) ? (item.summary as Array<Record<string, unknown>>) : [];
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item: { ...item, summary: [] } });
    summary.forEach((part, summaryIndex) => {
      const base = { item_id: id, output_index: outputIndex, summary_index: summaryIndex };
      const text = String(part.text ?? '');
      events.push({ type: 'response.reasoning_summary_part.added', ...base, part: { type: 'summary_text', text: '' } });
      for (const delta of splitIntoChunks(text)) events.push({ type: 'response.reasoning_summary_text.delta', ...base, delta });
      events.push({ type: 'response.reasoning_summary_text.done', ...base, text });
      events.push({ type: 'response.reasoning_summary_part.done', ...base, part: { type: 'summary_text', text } });
    });
  } else {
    const added = 'status' in item ? { ...item, status: 'in_progress' } : item;
    events.push({ type: 'response.output_item.added', output_index: outputIndex, item: added });
  }
  events.push({ type: 'response.output_item.done', output_index: outputIndex, item });
  return events;
}

/**
 * The full event sequence the API streams for a final Response: `response.created`, `response.in_progress`,
 * per item its added / delta / done events, then `response.completed`, `response.incomplete` or `response.failed`.
 */
export function responseStreamEvents(response: ResponseObject): StreamEvent[] {
  const snapshot = inProgressSnapshot(response);
  const events: StreamEvent[] = [
    { type: 'response.created', response: snapshot },
    { type: 'response.in_progress', response: snapshot },
  ];
  response.output.forEach((item, index) => events.push(...itemEvents(item, index)));
  const terminal =
    response.status === 'failed' ? 'response.failed' : response.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
  events.push({ type: terminal, response });
  return events;
}

/** The events of a stream that fails with an `error` event right after it started. */
export function errorStreamEvents(
  response: ResponseObject,
  error: { message: string; code: string | null; param: string | null },
): StreamEvent[] {
  const snapshot = inProgressSnapshot(response);
  return [
    { type: 'response.created', response: snapshot },
    { type: 'response.in_progress', response: snapshot },
    { type: 'error', code: error.code, message: error.message, param: error.param },
  ];
}
