import type OpenAI from 'openai';
import type { ModelGateway } from './model-gateway.js';

/** Options of `createOpenAIResponsesGateway`. */
export interface OpenAIResponsesGatewayOptions {
  /** A ready client; otherwise one is made from `apiKey` / `baseURL`. */
  client?: OpenAI;
  apiKey?: string;
  baseURL?: string;
  model: string;
  /** `store` sent with each request (default false: stateless, full input each time). */
  store?: boolean;
  /** Chain steps with `previous_response_id` instead of resending the input (needs `store: true`). */
  previousResponseId?: boolean;
  /** The SDK's retries on 429 / 5xx / connection errors (default 2). */
  maxRetries?: number;
  /** Per-request timeout in ms. */
  timeoutMs?: number;
  /** Extra request fields (reasoning, temperature, ...). */
  requestOptions?: Record<string, unknown>;
}

/** A `ModelGateway` on the official `openai` SDK's Responses API, streaming. */
export function createOpenAIResponsesGateway(options: OpenAIResponsesGatewayOptions): ModelGateway {
  // TODO(runtime-loop helper)
  void options;
  throw new Error('createOpenAIResponsesGateway: not implemented yet');
}
