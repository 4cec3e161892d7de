import { createHash } from 'node:crypto';
import { estimateTokens } from './context-window.js';
import { generateId } from './generate-id.js';

type Item = Record<string, unknown>;

function isObject(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A request's `input` as a list of items (a string is one user message, as the API reads it). */
export function inputItems(input: unknown): Item[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? input.filter(isObject) : [];
}

function userMessage(item: Item): Item | undefined {
  if (item.role !== 'user' || (item.type !== undefined && item.type !== 'message')) return undefined;
  // The content as it was sent: a string stays a string (a part list would make the message ambiguous between the
  // API's EasyInputMessage and InputMessage when it is sent back).
  return { type: 'message', role: 'user', content: item.content };
}

/**
 * A `compaction` item standing for `items`: `{ type: 'compaction', id: 'cmp_…', encrypted_content: 'gAAAAA…' }`.
 * The content is opaque like the API's (base64 of how many items and tokens it replaced and their digest),
 * short whatever the size of what it replaces.
 */
export function compactionItem(items: readonly Item[]): { type: 'compaction' } & Item {
  const digest = createHash('sha256').update(JSON.stringify(items)).digest('hex');
  const summary = JSON.stringify({ items: items.length, tokens: estimateTokens(items), digest });
  return { type: 'compaction', id: generateId('cmp'), encrypted_content: `gAAAAA${Buffer.from(summary).toString('base64')}` };
}

/**
 * What `POST /v1/responses/compact` answers for a context: every user message of it (as `message` items with
 * content as sent, in order), then one `compaction` item standing for the whole context. An earlier
 * `compaction` item is folded into the new one.
 */
export function compactItems(items: readonly Item[]): Item[] {
  const users = items.map(userMessage).filter((item): item is Item => item !== undefined);
  return [...users, compactionItem(items)];
}
