import { estimateTokens } from './context-window.js';
import { generateId } from './generate-id.js';
import type { OutputItemSpec, ResponseStepReply, UsageOptions } from './step-reply.js';

/** A Response object as the API returns it (the fields our code and the SDK read, all present). */
export type ResponseObject = Record<string, unknown> & {
  id: string;
  status: string;
  output: Array<Record<string, unknown>>;
};

const ID_PREFIXES: Record<string, string> = {
  message: 'msg',
  function_call: 'fc',
  reasoning: 'rs',
  tool_search_call: 'tsc',
  tool_search_output: 'tso',
  custom_tool_call: 'ctc',
  compaction: 'cmp',
};

function outputText(item: Record<string, unknown>): string {
  if (item.type === 'message' && Array.isArray(item.content)) {
    return item.content.map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : '')).join('');
  }
  if (item.type === 'function_call') return String(item.arguments ?? '');
  if (item.type === 'custom_tool_call') return String(item.input ?? '');
  return JSON.stringify(item);
}

/** Gives every item its ids (kept when the script set them) and a status. */
function materializeItems(
  items: OutputItemSpec[],
  status: ResponseStepReply['status'],
  includeEncryptedReasoning: boolean,
): Array<Record<string, unknown>> {
  return items.map((spec, index) => {
    const item: Record<string, unknown> = structuredClone(spec);
    const prefix = ID_PREFIXES[spec.type];
    if (item.id === undefined && prefix !== undefined) item.id = generateId(prefix);
    if (spec.type === 'reasoning' && includeEncryptedReasoning && item.encrypted_content === undefined) {
      item.encrypted_content = `testkit-encrypted-${generateId('rs')}`;
    }
    if ((spec.type === 'function_call' || spec.type === 'tool_search_call' || spec.type === 'custom_tool_call') && item.call_id === undefined) {
      item.call_id = generateId('call');
    }
    if (spec.type !== 'reasoning' && item.status === undefined) {
      item.status = status === 'incomplete' && index === items.length - 1 ? 'incomplete' : 'completed';
    }
    return item;
  });
}

function usageObject(usage: UsageOptions | undefined, body: Record<string, unknown>, output: Array<Record<string, unknown>>, contextTokens: number | undefined) {
  const inputTokens = usage?.inputTokens ?? contextTokens ?? estimateTokens(body.input) + estimateTokens(body.instructions);
  const reasoningTokens =
    usage?.reasoningTokens ?? output.filter((item) => item.type === 'reasoning').reduce((sum, item) => sum + estimateTokens(item.summary), 0);
  const outputTokens =
    usage?.outputTokens ?? output.reduce((sum, item) => sum + estimateTokens(outputText(item)), 0) + reasoningTokens;
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: usage?.cachedTokens ?? 0, cache_write_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: inputTokens + outputTokens,
  };
}

/** Options of `buildResponse`. */
export interface BuildResponseOptions {
  step: ResponseStepReply;
  /** The request body (echoed fields: instructions, tools, tool_choice, temperature, ...). */
  body: Record<string, unknown>;
  /** Model from the server options; the step's and the request's model are used otherwise. */
  model?: string;
  /** `usage.input_tokens` when the step does not set it (default: the request's `input` and `instructions`, characters / 4). */
  inputTokens?: number;
}

/** Turns a response step into the final Response object of one request, with fresh ids. */
export function buildResponse(options: BuildResponseOptions): ResponseObject {
  const { step, body } = options;
  const include = Array.isArray(body.include) ? body.include : [];
  const output = step.status === 'failed' ? [] : materializeItems(step.output, step.status, include.includes('reasoning.encrypted_content'));
  const createdAt = Math.floor(Date.now() / 1000);
  const text = (body.text as Record<string, unknown> | undefined) ?? {};
  return {
    id: generateId('resp'),
    object: 'response',
    created_at: createdAt,
    status: step.status,
    background: false,
    completed_at: step.status === 'completed' ? createdAt : null,
    error: step.status === 'failed' ? (step.error ?? { code: 'server_error', message: 'The response failed.' }) : null,
    incomplete_details: step.status === 'incomplete' ? { reason: step.incompleteReason ?? 'max_output_tokens' } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    max_tool_calls: body.max_tool_calls ?? null,
    model: step.model ?? options.model ?? (typeof body.model === 'string' ? body.model : 'testkit-model'),
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    prompt_cache_key: body.prompt_cache_key ?? null,
    reasoning: { effort: (body.reasoning as { effort?: unknown } | undefined)?.effort ?? null, summary: null },
    safety_identifier: body.safety_identifier ?? null,
    service_tier: 'default',
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: { format: { type: 'text' }, verbosity: 'medium', ...text },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_logprobs: body.top_logprobs ?? 0,
    top_p: body.top_p ?? 1,
    truncation: body.truncation ?? 'disabled',
    usage: usageObject(step.usage, body, output, options.inputTokens),
    metadata: body.metadata ?? {},
  };
}
