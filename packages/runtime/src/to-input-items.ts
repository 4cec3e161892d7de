import type { ResponseInputItem, ResponseOutputItem } from './model-gateway.js';

/** Output-only fields the input item schemas do not have (`created_by` on tool search items, for one). */
const OUTPUT_ONLY_FIELDS = ['created_by'] as const;

/**
 * The input items that echo a response's output back to the model (stateless mode): every item, reasoning
 * included (with its `encrypted_content`), as the API returned it, minus the output-only fields the input
 * schemas do not list. `status` stays: the input schemas of messages, function calls, reasoning and tool
 * search items accept it (and `OutputMessage` requires it).
 */
export function toInputItems(output: readonly ResponseOutputItem[]): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const item of output) {
    let copy: Record<string, unknown> | undefined;
    for (const field of OUTPUT_ONLY_FIELDS) {
      if (field in item) {
        copy ??= { ...item };
        delete copy[field];
      }
    }
    items.push((copy ?? item) as ResponseInputItem);
  }
  return items;
}

/** The text of a response: its `message` items' `output_text` parts, joined. */
export function outputText(output: readonly ResponseOutputItem[]): string {
  let text = '';
  for (const item of output) {
    if (item.type !== 'message') continue;
    for (const part of item.content) {
      if (part.type === 'output_text') text += part.text;
    }
  }
  return text;
}
