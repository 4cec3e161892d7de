import { buildResponse, reply, responseStreamEvents } from '@core/testkit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import { ToolDefinitionError } from '../errors.js';
import { gate, gatewayFor, historyProblem, outputFor, withServer } from '../__fixtures__/loop-harness.js';
import type { ModelGateway } from '../gateway/model-gateway.js';
import { runAgentLoop } from '../loop/run-agent-loop.js';
import { SLOW_MS, traced, onEventInto, probe, untilAborted, call, before, failedAfter } from '../__fixtures__/eager-trace.js';

describe('eager dispatch: calls start while the response streams', () => {
  it('starts each read-only call as soon as its item is complete, and records the outputs in the model order', async () => {
    const thirdEnded = gate();
    const look = probe('look', { readOnly: true }, async (text) => {
      if (text === 'c1') await thirdEnded.promise; // c1 ends last
      if (text === 'c3') thirdEnded.open();
      return `saw ${text}`;
    });
    await withServer(
      [reply.slow(reply.functionCalls([call('look', 'c1'), call('look', 'c2'), call('look', 'c3')]), { delayMs: SLOW_MS }), reply.text('Done.')],
      async (server) => {
        const trace: string[] = [];
        const result = await runAgentLoop({ gateway: traced(gatewayFor(server), trace), tools: [look.tool], input: 'look', onEvent: onEventInto(trace) });
        expect(result.reason).toBe('completed');
        expect(before(trace, 'start c1', 'item c2')).toBe(true);
        expect(before(trace, 'start c2', 'item c3')).toBe(true);
        expect(before(trace, 'start c3', 'complete')).toBe(true);
        expect(before(trace, 'end c3 success', 'end c1 success')).toBe(true);
        const outputs = (server.requests[1]?.body.input as Array<{ type: string; call_id?: string }>).filter((item) => item.type === 'function_call_output');
        expect(outputs.map((item) => item.call_id)).toEqual(['c1', 'c2', 'c3']);
        expect(outputFor(server.requests[1]?.body, 'c1')).toBe('saw c1');
        expect(result.toolCalls).toBe(3);
        expect(historyProblem(result.items)).toBeUndefined();
      },
    );
  });

  it('reports a message the stream completed before an early call ahead of its activity, once', async () => {
    const look = probe('look', { readOnly: true });
    await withServer(
      [reply.slow(reply.functionCalls([call('look', 'c1'), call('look', 'c2')], { text: 'Let me look.' }), { delayMs: SLOW_MS }), reply.text('Done.')],
      async (server) => {
        const trace: string[] = [];
        const log = onEventInto(trace);
        const result = await runAgentLoop({
          gateway: traced(gatewayFor(server), trace),
          tools: [look.tool],
          input: 'look',
          onEvent: (event) => {
            log?.(event);
            if (event.type === 'message.completed') trace.push(`message ${event.text}`);
          },
        });
        expect(result.reason).toBe('completed');
        expect(trace.filter((entry) => entry.startsWith('message '))).toEqual(['message Let me look.', 'message Done.']);
        expect(before(trace, 'message Let me look.', 'start c1')).toBe(true);
        expect(before(trace, 'start c1', 'complete')).toBe(true);
      },
    );
  });

  it('starts nothing before the response is complete with eagerDispatch: false', async () => {
    const look = probe('look', { readOnly: true });
    await withServer([reply.slow(reply.functionCalls([call('look', 'c1'), call('look', 'c2')]), { delayMs: SLOW_MS }), reply.text('Done.')], async (server) => {
      const trace: string[] = [];
      const result = await runAgentLoop({
        gateway: traced(gatewayFor(server), trace),
        tools: [look.tool],
        input: 'look',
        eagerDispatch: false,
        onEvent: onEventInto(trace),
      });
      expect(result.reason).toBe('completed');
      expect(trace.slice(0, 4)).toEqual(['item c1', 'item c2', 'complete', 'start c1']);
    });
  });

  it('keeps the model ordering: sequential read-only calls one after the other, other tools after the response', async () => {
    const read = probe('read', { readOnly: true, executionMode: 'sequential' });
    const look = probe('look', { readOnly: true });
    const write = probe('write', {});
    await withServer(
      [
        reply.slow(reply.functionCalls([call('read', 's1'), call('read', 's2'), call('write', 'w'), call('look', 'r')]), { delayMs: SLOW_MS }),
        reply.text('Done.'),
      ],
      async (server) => {
        const trace: string[] = [];
        const result = await runAgentLoop({
          gateway: traced(gatewayFor(server), trace),
          tools: [read.tool, look.tool, write.tool],
          input: 'go',
          onEvent: onEventInto(trace),
        });
        expect(result.reason).toBe('completed');
        expect(before(trace, 'end s1 success', 'start s2')).toBe(true);
        expect(before(trace, 'end s2 success', 'start r')).toBe(true);
        expect(before(trace, 'start r', 'complete')).toBe(true);
        expect(before(trace, 'complete', 'start w')).toBe(true);
        expect(write.executed).toEqual(['w']);
      },
    );
  });

  it('starts a call after the response only behind what started early in front of it (a running sequential call)', async () => {
    const responseDone = gate();
    const read = probe('read', { readOnly: true, executionMode: 'sequential' }, async () => {
      await responseDone.promise;
      return 'read';
    });
    const write = probe('write', {});
    await withServer([reply.slow(reply.functionCalls([call('read', 's1'), call('write', 'w')]), { delayMs: SLOW_MS }), reply.text('Done.')], async (server) => {
      const trace: string[] = [];
      const gateway = traced(gatewayFor(server), trace, () => setImmediate(() => responseDone.open()));
      const result = await runAgentLoop({ gateway, tools: [read.tool, write.tool], input: 'go', onEvent: onEventInto(trace) });
      expect(result.reason).toBe('completed');
      expect(before(trace, 'start s1', 'complete')).toBe(true);
      expect(before(trace, 'end s1 success', 'start w')).toBe(true);
    });
  });

  it('counts the calls started early against maxConcurrency', async () => {
    let running = 0;
    let mostRunning = 0;
    const responseDone = gate();
    const counted = async (text: string): Promise<string> => {
      running += 1;
      mostRunning = Math.max(mostRunning, running);
      if (text === 'r1') await responseDone.promise;
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      return text;
    };
    const look = probe('look', { readOnly: true }, counted);
    const write = probe('write', {}, counted);
    await withServer(
      [reply.slow(reply.functionCalls([call('look', 'r1'), call('write', 'w'), call('look', 'r2')]), { delayMs: SLOW_MS }), reply.text('Done.')],
      async (server) => {
        const trace: string[] = [];
        const gateway = traced(gatewayFor(server), trace, () => setImmediate(() => responseDone.open()));
        const result = await runAgentLoop({ gateway, tools: [look.tool, write.tool], input: 'go', maxConcurrency: 1, onEvent: onEventInto(trace) });
        expect(result.reason).toBe('completed');
        expect(mostRunning).toBe(1);
        expect(before(trace, 'start r1', 'complete')).toBe(true);
        expect(['w', 'r2'].map((id) => outputFor(server.requests[1]?.body, id))).toEqual(['w', 'r2']);
      },
    );
  });

  it('lets a tool opt in (eagerStart: true) or out (eagerStart: false)', async () => {
    const early = probe('write_early', { eagerStart: true });
    const late = probe('look_late', { readOnly: true, eagerStart: false });
    await withServer(
      [reply.slow(reply.functionCalls([call('write_early', 'e'), call('look_late', 'l')]), { delayMs: SLOW_MS }), reply.text('Done.')],
      async (server) => {
        const trace: string[] = [];
        await runAgentLoop({ gateway: traced(gatewayFor(server), trace), tools: [early.tool, late.tool], input: 'go', onEvent: onEventInto(trace) });
        expect(before(trace, 'start e', 'complete')).toBe(true);
        expect(before(trace, 'complete', 'start l')).toBe(true);
      },
    );
  });

  it('refuses an eagerStart that is not a boolean', () => {
    const definition = {
      name: 'bad',
      description: 'Bad flag.',
      schema: z.object({}),
      eagerStart: 'yes' as unknown as boolean,
      describeActivity: () => 'bad',
      execute: () => ({ content: 'x' }),
    };
    expect(() => defineWorkerTool(definition)).toThrow(ToolDefinitionError);
    expect(() => defineWorkerTool(definition)).toThrow(/eagerStart must be a boolean/);
  });
});

describe('eager dispatch: responses that are not run', () => {
  it('aborts the calls a cut-off response started, gives them and the others synthetic outputs, starts no write', async () => {
    const look = probe('look', { readOnly: true }, (_text, signal) => untilAborted(signal));
    const write = probe('write', {});
    await withServer(
      [
        reply.slow(reply.incomplete(reply.functionCalls([call('look', 'r1'), call('write', 'w'), call('look', 'r3')])), { delayMs: SLOW_MS }),
        reply.text('Sorry, let me try again later.'),
      ],
      async (server) => {
        const trace: string[] = [];
        const result = await runAgentLoop({
          gateway: traced(gatewayFor(server), trace),
          tools: [look.tool, write.tool],
          input: 'go',
          onEvent: onEventInto(trace),
        });
        expect(result.reason).toBe('completed');
        expect(result.steps).toBe(2);
        expect(before(trace, 'start r1', 'complete')).toBe(true);
        expect(before(trace, 'complete', 'end r1 aborted')).toBe(true);
        expect(trace.find((entry) => entry.startsWith('why r1'))).toMatch(
          /stopped before it finished because the model response it came from was cut off \(max_output_tokens\)/,
        );
        expect(write.executed).toEqual([]);
        expect(look.executed).toEqual(['r1']); // r3, the cut-off item, never started
        const second = server.requests[1]?.body ?? {};
        expect(outputFor(second, 'r1')).toMatch(/^Error: stopped: your previous response was cut off \(max_output_tokens\).*aborted/);
        expect(outputFor(second, 'w')).toMatch(/^Error: not run: your previous response was cut off/);
        expect(outputFor(second, 'r3')).toMatch(/^Error: not run:/);
        expect(historyProblem(result.items)).toBeUndefined();
      },
    );
  });

  it('aborts the calls of a failed response; nothing of it enters the history, which the API accepts again', async () => {
    const look = probe('look', { readOnly: true }, (_text, signal) => untilAborted(signal));
    const write = probe('write', {});
    await withServer([reply.slow(failedAfter([call('look', 'r1'), call('write', 'w')]), { delayMs: SLOW_MS }), reply.text('Recovered.')], async (server) => {
      const trace: string[] = [];
      const gateway = traced(gatewayFor(server), trace);
      const result = await runAgentLoop({ gateway, tools: [look.tool, write.tool], input: 'go', onEvent: onEventInto(trace) });
      expect(result.reason).toBe('error');
      expect(result.error).toMatch(/failed \(server_error: the model gave up\)/);
      expect(before(trace, 'start r1', 'failed')).toBe(true);
      expect(before(trace, 'failed', 'end r1 aborted')).toBe(true);
      expect(trace.find((entry) => entry.startsWith('why r1'))).toMatch(/the model response it came from failed/);
      expect(write.executed).toEqual([]);
      expect(historyProblem(result.items)).toBeUndefined();
      const again = await runAgentLoop({
        gateway,
        tools: [look.tool, write.tool],
        input: [...result.items, { type: 'message', role: 'user', content: 'again' }],
      });
      expect(again.reason).toBe('completed');
      expect(again.text).toBe('Recovered.');
    });
  });

  it('aborts the calls started early when the turn is aborted mid-stream', async () => {
    const controller = new AbortController();
    const look = probe('look', { readOnly: true }, (_text, signal) => {
      setImmediate(() => controller.abort());
      return untilAborted(signal);
    });
    const write = probe('write', {});
    await withServer([reply.slow(reply.functionCalls([call('look', 'r1'), call('write', 'w'), call('look', 'r3')]), { delayMs: SLOW_MS })], async (server) => {
      const trace: string[] = [];
      const result = await runAgentLoop({
        gateway: traced(gatewayFor(server), trace),
        tools: [look.tool, write.tool],
        input: 'go',
        signal: controller.signal,
        onEvent: onEventInto(trace),
      });
      expect(result.reason).toBe('aborted');
      expect(trace).toContain('end r1 aborted');
      expect(trace).not.toContain('complete');
      expect(write.executed).toEqual([]);
      expect(historyProblem(result.items)).toBeUndefined();
      expect(result.items.some((item) => item.type === 'function_call')).toBe(false);
    });
  });
});

describe('eager dispatch when a gateway retries a cut stream', () => {
  it('aborts the calls the first stream started once items of the retried response arrive', async () => {
    const look = probe('look', { readOnly: true }, (text, signal) => (text === 'r1' ? untilAborted(signal) : `look ${text}`));
    const first = reply.functionCalls([call('look', 'r1'), call('look', 'r9')]);
    const cutAt =
      responseStreamEvents(buildResponse({ step: first, body: { model: 'test-model' } })).findIndex((event) => event.type === 'response.output_item.done') + 1;
    await withServer(
      [
        reply.slow(reply.cutStream(first, { afterEvents: cutAt }), { delayMs: SLOW_MS }),
        reply.slow(reply.functionCalls([call('look', 'r2')]), { delayMs: SLOW_MS }),
        reply.text('Done.'),
      ],
      async (server) => {
        const trace: string[] = [];
        const inner = gatewayFor(server, { maxRetries: 0 });
        // Like the worker's retryModelCalls: a cut stream is asked again, in place, once.
        const retrying: ModelGateway = {
          usesPreviousResponseId: false,
          async createResponse(request, options) {
            try {
              return await inner.createResponse(request, options);
            } catch {
              trace.push('retry');
              return inner.createResponse(request, options);
            }
          },
        };
        const result = await runAgentLoop({ gateway: traced(retrying, trace), tools: [look.tool], input: 'go', onEvent: onEventInto(trace) });
        expect(result.reason).toBe('completed');
        expect(before(trace, 'start r1', 'retry')).toBe(true);
        expect(before(trace, 'item r2', 'end r1 aborted')).toBe(true);
        expect(trace.find((entry) => entry.startsWith('why r1'))).toMatch(/the request was retried/);
        expect(before(trace, 'end r1 aborted', 'complete')).toBe(true);
        expect(look.executed).toEqual(['r1', 'r2']);
        expect(historyProblem(result.items)).toBeUndefined();
        expect(outputFor(server.requests[2]?.body, 'r2')).toBe('look r2');
      },
    );
  });
});
