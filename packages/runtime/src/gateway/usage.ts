import type OpenAI from 'openai';
import type { TokenUsage } from '../loop/agent-events.js';

/** A usage of zero tokens: the start of a sum. */
export function emptyUsage(): TokenUsage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0, cachedInputTokens: 0, reasoningTokens: 0 };
}

/** Converts the Responses API's `usage` object; `undefined` when the response carried none. */
export function fromResponseUsage(usage: OpenAI.Responses.ResponseUsage | null | undefined): TokenUsage | undefined {
  if (usage === null || usage === undefined) return undefined;
  return {
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    totalTokens: usage.total_tokens ?? (usage.input_tokens ?? 0) + (usage.output_tokens ?? 0),
    cachedInputTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
  };
}

/** Adds `step` to `total` in place and returns `total`. */
export function addUsage(total: TokenUsage, step: TokenUsage): TokenUsage {
  total.inputTokens += step.inputTokens;
  total.outputTokens += step.outputTokens;
  total.totalTokens += step.totalTokens;
  total.cachedInputTokens = (total.cachedInputTokens ?? 0) + (step.cachedInputTokens ?? 0);
  total.reasoningTokens = (total.reasoningTokens ?? 0) + (step.reasoningTokens ?? 0);
  return total;
}
