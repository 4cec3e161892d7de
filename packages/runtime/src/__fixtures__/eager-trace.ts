import { buildResponse, reply, responseStreamEvents, type StepReply } from '@core/testkit';
import { z } from 'zod';
import type { ModelGateway } from '../gateway/model-gateway.js';
import type { AgentLoopOptions } from '../loop/run-agent-loop.js';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import type { ExecutionMode } from '../tool/worker-agent-tool.js';

// Helpers of the eager-dispatch tests (dispatch/eager-dispatch*.test.ts).
// Every test streams slowly (a pause between two SSE events), so an item's completion and the response's are apart
// and the order of the trace below says what started when. No timing is asserted, only order.
export const SLOW_MS = 15;

/**
 * One ordered log of what happened: `item <call_id>` when the gateway reports an output item complete, `complete`
 * when the response is (the gateway resolved), `failed` when it rejected, `start <id>` / `end <id> <status>` from
 * the activity events, and whatever the tools and policies add.
 */
export function traced(inner: ModelGateway, trace: string[], onComplete?: () => void): ModelGateway {
  return {
    usesPreviousResponseId: inner.usesPreviousResponseId,
    async createResponse(request, options = {}) {
      try {
        const response = await inner.createResponse(request, {
          ...options,
          onOutputItemDone: (item, source) => {
            trace.push(`item ${'call_id' in item ? item.call_id : item.type}`);
            options.onOutputItemDone?.(item, source);
          },
        });
        trace.push('complete');
        onComplete?.();
        return response;
      } catch (error) {
        trace.push('failed');
        throw error;
      }
    },
  };
}

export function onEventInto(trace: string[]): AgentLoopOptions['onEvent'] {
  return (event) => {
    if (event.type === 'activity.started') trace.push(`start ${event.callId}`);
    else if (event.type === 'activity.completed') {
      trace.push(`end ${event.callId} ${event.status}`);
      if (event.status === 'aborted') trace.push(`why ${event.callId}: ${event.error}`);
    } else if (event.type === 'approval.requested') trace.push(`approval ${event.callId}`);
  };
}

/** A `{ text }` tool: records its executions, runs `run` (default: answers at once). */
export function probe(
  name: string,
  flags: { readOnly?: boolean; executionMode?: ExecutionMode; eagerStart?: boolean; needsApproval?: boolean },
  run: (text: string, signal: AbortSignal) => Promise<string> | string = (text) => `${name} ${text}`,
) {
  const executed: string[] = [];
  const tool = defineWorkerTool({
    name,
    description: `Test tool ${name}.`,
    schema: z.object({ text: z.string() }),
    executionMode: flags.executionMode ?? 'parallel',
    isReadOnly: flags.readOnly ?? false,
    ...(flags.eagerStart === undefined ? {} : { eagerStart: flags.eagerStart }),
    ...(flags.needsApproval === undefined ? {} : { needsApproval: flags.needsApproval }),
    describeActivity: (params) => `${name} ${params.text}`,
    execute: async (params, context) => {
      executed.push(context.callId);
      return { content: await run(params.text, context.signal) };
    },
  });
  return { tool, executed };
}

/** Resolves when the signal aborts (a read-only call that would run long). */
export function untilAborted(signal: AbortSignal): Promise<string> {
  return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
}

export const call = (name: string, callId: string, text = callId) => ({ name, arguments: { text }, callId });
export const before = (trace: string[], first: string, second: string): boolean => {
  const firstAt = trace.indexOf(first);
  const secondAt = trace.indexOf(second);
  return firstAt !== -1 && secondAt !== -1 && firstAt < secondAt;
};

/** A stream that sends these calls' items, then ends with `response.failed` (the testkit's failed reply has no items). */
export function failedAfter(calls: ReturnType<typeof call>[]): StepReply {
  const events = responseStreamEvents(buildResponse({ step: reply.functionCalls(calls), body: { model: 'test-model' } }));
  const terminal = events.at(-1) as unknown as { response: Record<string, unknown> };
  const failed = {
    type: 'response.failed',
    response: { ...terminal.response, status: 'failed', output: [], usage: null, error: { code: 'server_error', message: 'the model gave up' } },
  };
  return reply.capture([...events.slice(0, -1), failed] as Parameters<typeof reply.capture>[0]);
}
