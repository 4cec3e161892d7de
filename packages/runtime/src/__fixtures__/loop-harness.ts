import {
  checkRequestSemantics,
  createRequestValidator,
  officialOpenapiDocument,
  startTestModelServer,
  type RequestValidator,
  type ScriptStep,
  type TestModelServer,
} from '@core/testkit';
import { z } from 'zod';
import type { AgentEvent } from '../loop/agent-events.js';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import type { ResponseInputItem } from '../gateway/model-gateway.js';
import { createOpenAIResponsesGateway, type OpenAIResponsesGatewayOptions } from '../gateway/openai-responses-gateway.js';
import type { ExecutionMode } from '../tool/worker-agent-tool.js';

/** The official OpenAPI description, when it is beside the checkout (the testkit's own description is always checked). */
const official = officialOpenapiDocument();

let validator: RequestValidator | undefined;

/** One compiled validator of the official CreateResponse for the whole test file, or `undefined` without the document. */
export function sharedValidator(): RequestValidator | undefined {
  if (!official.present) return undefined;
  validator ??= createRequestValidator(official.path);
  return validator;
}

/**
 * Starts a test model server, runs `body`, closes it. Every request is checked against the testkit's description
 * of the request, and against the official OpenAPI document too when it is present.
 */
export async function withServer<T>(script: ScriptStep[], body: (server: TestModelServer) => Promise<T>): Promise<T> {
  const requestValidator = sharedValidator();
  const server = await startTestModelServer({ script, ...(requestValidator === undefined ? {} : { requestValidator }) });
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

/** A gateway on the real `openai` SDK pointed at the test server (fast, bounded retries). */
export function gatewayFor(server: TestModelServer, options: Partial<OpenAIResponsesGatewayOptions> = {}) {
  return createOpenAIResponsesGateway({ baseURL: server.baseURL, apiKey: 'test-key', model: 'test-model', maxRetries: 2, timeoutMs: 10_000, ...options });
}

/** Collects events; `types()` lists them compactly. */
export function eventLog() {
  const events: AgentEvent[] = [];
  return {
    events,
    onEvent: (event: AgentEvent) => events.push(event),
    of<T extends AgentEvent['type']>(type: T): Extract<AgentEvent, { type: T }>[] {
      return events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);
    },
    /** `activity.started c1`, `activity.completed c1`, ... for ordering assertions. */
    activity(): string[] {
      return events.flatMap((event) =>
        event.type === 'activity.started' || event.type === 'activity.completed'
          ? [`${event.type === 'activity.started' ? 'start' : 'end'} ${event.callId}`]
          : [],
      );
    },
  };
}

/** A deferred promise: a tool waits on it, the test opens it. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A tool with `{ text }` params whose behaviour is given. */
export function textTool(
  name: string,
  run: (text: string, signal: AbortSignal) => Promise<string> | string,
  options: { executionMode?: ExecutionMode; timeoutMs?: number } = {},
) {
  return defineWorkerTool({
    name,
    description: `Test tool ${name}: does something with a text.`,
    schema: z.object({ text: z.string() }),
    executionMode: options.executionMode ?? 'parallel',
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    describeActivity: (params) => `${name} ${params.text}`,
    execute: async (params, context) => ({ content: await run(params.text, context.signal) }),
  });
}

/** The API's own check of a history: every call answered, every output after its call (undefined when valid). */
export function historyProblem(items: ResponseInputItem[]) {
  return checkRequestSemantics({ model: 'test-model', input: items });
}

/** Output text of a recorded request's function_call_output for `callId`. */
export function outputFor(body: { input?: unknown }, callId: string): unknown {
  const input = Array.isArray(body.input) ? (body.input as Array<Record<string, unknown>>) : [];
  return input.find((item) => item.type === 'function_call_output' && item.call_id === callId)?.output;
}
