import type { ApiErrorBody } from './api-error.js';

type Item = Record<string, unknown>;

const NOT_PERSISTED_ADVICE =
  'Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.';

function isObject(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The id of an input item the API has to look up: an `item_reference` (tagged, or untagged with only an `id`), or a
 * `reasoning` item without `encrypted_content` (nothing else carries its content).
 */
function lookedUpId(item: Item): string | undefined {
  if (typeof item.id !== 'string') return undefined;
  if (item.type === 'item_reference') return item.id;
  if (item.type === undefined && item.role === undefined && item.content === undefined) return item.id;
  if (item.type === 'reasoning' && (typeof item.encrypted_content !== 'string' || item.encrypted_content === '')) return item.id;
  return undefined;
}

/**
 * The API's 404 for an input item it must look up by id and cannot find: an `item_reference`, or a `reasoning`
 * item without `encrypted_content`, whose id is not among the `persisted` items (the output of responses served
 * with `store` not false). Under `store: false` the message says why, as the API does:
 * `Item with id 'rs_…' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\`
 * set to true, or remove this item from your input.` (`param: 'input'`, `code: null`). `undefined` when every
 * looked-up item was persisted.
 */
export function checkItemReferences(body: unknown, persisted: ReadonlySet<string>): ApiErrorBody | undefined {
  if (!isObject(body) || !Array.isArray(body.input)) return undefined;
  for (const item of body.input) {
    if (!isObject(item)) continue;
    const id = lookedUpId(item);
    if (id === undefined || persisted.has(id)) continue;
    const message = body.store === false ? `Item with id '${id}' not found. ${NOT_PERSISTED_ADVICE}` : `Item with id '${id}' not found.`;
    return { error: { message, type: 'invalid_request_error', param: 'input', code: null } };
  }
  return undefined;
}
