import { invalidRequest, type ApiErrorBody } from './api-error.js';
import { compactItems, inputItems } from './compact-input.js';
import { estimateTokens } from './context-window.js';
import { generateId } from './generate-id.js';

type Item = Record<string, unknown>;

/** The stored context of each response served with `store` not false: what `previous_response_id` continues. */
export type StoredContexts = Map<string, Item[]>;

/** One JSON answer of a context endpoint. */
export interface EndpointAnswer {
  status: number;
  body: unknown;
}

function notFound(id: string): ApiErrorBody {
  return { error: { message: `Previous response with id '${id}' not found.`, type: 'invalid_request_error', param: 'previous_response_id', code: 'previous_response_not_found' } };
}

/** The items in context for a request body: the stored chain of `previous_response_id`, then `input`. */
export function contextItems(body: Item, contexts: StoredContexts): { items: Item[] } | { error: ApiErrorBody } {
  const previous = body.previous_response_id;
  if (typeof previous !== 'string') return { items: inputItems(body.input) };
  const prior = contexts.get(previous);
  if (prior === undefined) return { error: notFound(previous) };
  return { items: [...prior, ...inputItems(body.input)] };
}

/** `POST /v1/responses/input_tokens`: `{ object: 'response.input_tokens', input_tokens }`, counted as for `usage`. */
export function answerInputTokens(body: Item, contexts: StoredContexts): EndpointAnswer {
  const context = contextItems(body, contexts);
  if ('error' in context) return { status: 404, body: context.error };
  return { status: 200, body: { object: 'response.input_tokens', input_tokens: estimateTokens(context.items) + estimateTokens(body.instructions) } };
}

/**
 * `POST /v1/responses/compact`: the compacted `CompactResource` (`object: 'response.compaction'`): the user
 * messages of the context followed by one opaque `compaction` item. Needs `model`; `previous_response_id` must
 * name a stored response. The compaction model reads any size of context.
 */
export function answerCompact(body: Item, contexts: StoredContexts): EndpointAnswer {
  if (body.model === undefined || body.model === null) return { status: 400, body: invalidRequest("Missing required parameter: 'model'.", 'model', 'missing_required_parameter') };
  const context = contextItems(body, contexts);
  if ('error' in context) return { status: 404, body: context.error };
  const output = compactItems(context.items);
  const inputTokens = estimateTokens(context.items) + estimateTokens(body.instructions);
  const outputTokens = estimateTokens(output.at(-1));
  return {
    status: 200,
    body: {
      id: generateId('resp'),
      object: 'response.compaction',
      created_at: Math.floor(Date.now() / 1000),
      output,
      usage: {
        input_tokens: inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: inputTokens + outputTokens,
      },
    },
  };
}
