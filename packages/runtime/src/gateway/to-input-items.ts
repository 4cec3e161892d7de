import type { MessagePhase, ResponseInputItem, ResponseOutputItem } from './model-gateway.js';

/** Output-only fields the input item schemas do not have (`created_by` on tool search items, for one). */
const OUTPUT_ONLY_FIELDS = ['created_by'] as const;

/** Output-only fields of one item type: the input `CustomToolCall` has no `status` (the output carries one). */
const OUTPUT_ONLY_FIELDS_BY_TYPE: Readonly<Record<string, readonly string[]>> = { custom_tool_call: ['status'] };

/**
 * The input items that echo a response's output back to the model (stateless mode): every item, reasoning
 * included (with its `encrypted_content`), as the API returned it, minus the output-only fields the input
 * schemas do not list. `status` stays: the input schemas of messages, function calls, reasoning and tool
 * search items accept it (and `OutputMessage` requires it); a `custom_tool_call` loses it. Reasoning without `encrypted_content` is kept here
 * (a stored response can replay it by id); `replayableInput` leaves it out of a `store: false` request.
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
    const ofType = Object.hasOwn(OUTPUT_ONLY_FIELDS_BY_TYPE, item.type) ? OUTPUT_ONLY_FIELDS_BY_TYPE[item.type] : undefined;
    if (ofType !== undefined) {
      for (const field of ofType) {
        if (field in item) {
          copy ??= { ...item };
          delete copy[field];
        }
      }
    }
    items.push((copy ?? item) as ResponseInputItem);
  }
  return items;
}

/**
 * The items a `store: false` request can carry: reasoning items without `encrypted_content` are left out. The API
 * looks such an item up by its id, and nothing was persisted under `store: false`, so it would answer 404 ("Item
 * with id 'rs_…' not found. Items are not persisted when `store` is set to false."). Returns `items` itself when
 * nothing is left out.
 */
export function replayableInput(items: readonly ResponseInputItem[]): readonly ResponseInputItem[] {
  if (!items.some(isUnreplayableReasoning)) return items;
  return items.filter((item) => !isUnreplayableReasoning(item));
}

function isUnreplayableReasoning(item: ResponseInputItem): boolean {
  if (item.type !== 'reasoning') return false;
  const encrypted = (item as { encrypted_content?: unknown }).encrypted_content;
  return typeof encrypted !== 'string' || encrypted === '';
}

/** One assistant message of a response: its item id, its phase when given, and its `output_text` parts joined. */
export interface MessageText {
  itemId: string;
  phase?: MessagePhase;
  text: string;
}

/** The assistant messages of a response, in order (messages without text included). */
export function messageTexts(output: readonly ResponseOutputItem[]): MessageText[] {
  const messages: MessageText[] = [];
  for (const item of output) {
    if (item.type !== 'message') continue;
    let text = '';
    for (const part of item.content) {
      if (part.type === 'output_text') text += part.text;
    }
    const message: MessageText = { itemId: item.id, text };
    const phase = (item as { phase?: unknown }).phase;
    if (phase === 'commentary' || phase === 'final_answer') message.phase = phase;
    messages.push(message);
  }
  return messages;
}

/**
 * The answer text of a response. With phases, the `final_answer` messages; else the messages that are not
 * `commentary`; else (commentary only) every message. Two messages are separated by a blank line, never glued.
 */
export function outputText(output: readonly ResponseOutputItem[]): string {
  const messages = messageTexts(output).filter((message) => message.text !== '');
  const finalAnswers = messages.filter((message) => message.phase === 'final_answer');
  const notCommentary = messages.filter((message) => message.phase !== 'commentary');
  const chosen = finalAnswers.length > 0 ? finalAnswers : notCommentary.length > 0 ? notCommentary : messages;
  return chosen.map((message) => message.text).join('\n\n');
}
