import type { ModelGateway, ResponseInputItem } from '../gateway/model-gateway.js';
import { outputText } from '../gateway/to-input-items.js';

const SUMMARY_REQUEST =
  'Your context window is filling up, so the part of the conversation above is about to be replaced by a summary. ' +
  'Write that summary now: what the user asked for, what you found and did (with the names, paths, ids and figures ' +
  'you will need), what is left to do. Plain text, no more than about 400 words. Do not call tools.';

/** Options of `summarizeWithModel`. */
export interface SummarizeWithModelOptions {
  /** Each tool output is cut to this many characters in the summary request (default 2000), so the request fits. */
  maxOutputChars?: number;
  /** Instructions of the summary request (default: none). */
  instructions?: string;
}

function shortened(item: ResponseInputItem, limit: number): ResponseInputItem {
  const record = item as unknown as Record<string, unknown>;
  if (record.type !== 'function_call_output' || typeof record.output !== 'string' || record.output.length <= limit) return item;
  return { ...record, output: `${record.output.slice(0, limit)}… [${record.output.length - limit} more characters]` } as unknown as ResponseInputItem;
}

/**
 * A `summarize` function for `localCompactor` that asks the model (through `gateway`, with no tools) to summarise the
 * older part of the history; tool outputs are cut to `maxOutputChars` in that request.
 * @throws what `gateway.createResponse` throws (the compactor then falls back to notes).
 */
export function summarizeWithModel(gateway: ModelGateway, options: SummarizeWithModelOptions = {}) {
  const limit = options.maxOutputChars ?? 2000;
  return async (items: readonly ResponseInputItem[], signal: AbortSignal | undefined): Promise<string> => {
    const response = await gateway.createResponse(
      {
        input: [...items.map((item) => shortened(item, limit)), { type: 'message', role: 'user', content: SUMMARY_REQUEST }],
        tools: [],
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      },
      signal === undefined ? {} : { signal },
    );
    return outputText(response.output);
  };
}
