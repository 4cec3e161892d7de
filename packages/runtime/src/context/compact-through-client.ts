import type OpenAI from 'openai';
import type { CompactedHistory } from '../gateway/model-gateway.js';
import { toInputItems } from '../gateway/to-input-items.js';
import { fromResponseUsage } from '../gateway/usage.js';

type CompactBody = Record<string, unknown> & { model: string };

interface CompactedResource {
  output?: unknown;
  usage?: OpenAI.Responses.ResponseUsage | null;
}

/**
 * Calls `POST /responses/compact` with `client`: through the SDK's `client.responses.compact` when this SDK has it,
 * else as a plain POST on the same client (same base URL, key, retries and timeout). Returns the compacted output as
 * input items. Throws what the SDK throws (an `APIError` with `status` 404 when the server has no such endpoint).
 */
export async function compactThroughClient(
  client: OpenAI,
  body: CompactBody,
  requestOptions: { signal?: AbortSignal; maxRetries?: number; timeout?: number },
): Promise<CompactedHistory> {
  const responses = client.responses as unknown as { compact?: (body: CompactBody, options?: object) => Promise<CompactedResource> };
  const resource: CompactedResource =
    typeof responses.compact === 'function'
      ? await responses.compact(body, requestOptions)
      : await client.post<CompactedResource>('/responses/compact', { body, ...requestOptions });
  const output = Array.isArray(resource.output) ? (resource.output as OpenAI.Responses.ResponseOutputItem[]) : [];
  const history: CompactedHistory = { items: toInputItems(output) };
  const usage = fromResponseUsage(resource.usage);
  if (usage !== undefined) history.usage = usage;
  return history;
}
