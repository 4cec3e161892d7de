import { reply } from '@core/testkit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ApprovalPolicy } from './approval-policy.js';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import { gatewayFor, outputFor, withServer } from '../__fixtures__/loop-harness.js';
import { runAgentLoop } from '../loop/run-agent-loop.js';
import { SLOW_MS, traced, onEventInto, probe, call, before } from '../__fixtures__/eager-trace.js';

describe('eager dispatch with approvals, wrappers and tool search', () => {
  it('does not start a call that needs approval before the response is complete and the policy allowed it', async () => {
    const guarded = probe('guarded_look', { readOnly: true, needsApproval: true });
    const look = probe('look', { readOnly: true });
    await withServer(
      [reply.slow(reply.functionCalls([call('guarded_look', 'g'), call('look', 'r')]), { delayMs: SLOW_MS }), reply.text('Done.')],
      async (server) => {
        const trace: string[] = [];
        const policy: ApprovalPolicy = (request) => {
          trace.push(`decide ${request.callId}`);
          return { action: 'allow' };
        };
        const result = await runAgentLoop({
          gateway: traced(gatewayFor(server), trace),
          tools: [guarded.tool, look.tool],
          input: 'go',
          approvalPolicy: policy,
          onEvent: onEventInto(trace),
        });
        expect(result.reason).toBe('completed');
        expect(before(trace, 'start r', 'complete')).toBe(true);
        expect(before(trace, 'complete', 'approval g')).toBe(true);
        expect(before(trace, 'decide g', 'start g')).toBe(true);
        expect(outputFor(server.requests[1]?.body, 'g')).toBe('guarded_look g');
      },
    );
  });

  it('pauses awaiting_approval with the held call not started and the early calls recorded', async () => {
    const guarded = probe('guarded_look', { readOnly: true, needsApproval: true });
    const look = probe('look', { readOnly: true });
    await withServer(
      [reply.slow(reply.functionCalls([call('look', 'r'), call('guarded_look', 'g')]), { delayMs: SLOW_MS }), reply.text('Done.')],
      async (server) => {
        const trace: string[] = [];
        const tools = [guarded.tool, look.tool];
        const paused = await runAgentLoop({
          gateway: traced(gatewayFor(server), trace),
          tools,
          input: 'go',
          approvalPolicy: () => ({ action: 'ask' }),
          onEvent: onEventInto(trace),
        });
        expect(paused.reason).toBe('awaiting_approval');
        expect(before(trace, 'start r', 'complete')).toBe(true);
        expect(guarded.executed).toEqual([]);
        expect(paused.runState?.pending.map((pending) => pending.callId)).toEqual(['g']);
        const resumed = await runAgentLoop({
          gateway: gatewayFor(server),
          tools,
          input: [],
          resume: { state: paused.runState!, decisions: { g: { approved: true } } },
        });
        expect(resumed.reason).toBe('completed');
        expect(guarded.executed).toEqual(['g']);
        expect(look.executed).toEqual(['r']);
        expect(outputFor(server.requests[1]?.body, 'r')).toBe('look r');
      },
    );
  });

  it('starts the inner calls of a multi_tool_use.parallel wrapper early and answers the wrapper once, in order', async () => {
    const look = probe('look', { readOnly: true });
    const wrapper = {
      name: 'parallel',
      callId: 'p',
      arguments: {
        tool_uses: [
          { recipient_name: 'functions.look', parameters: { text: 'a' } },
          { recipient_name: 'functions.look', parameters: { text: 'b' } },
        ],
      },
    };
    await withServer([reply.slow(reply.functionCalls([wrapper, call('look', 'c')]), { delayMs: SLOW_MS }), reply.text('Done.')], async (server) => {
      const trace: string[] = [];
      const result = await runAgentLoop({ gateway: traced(gatewayFor(server), trace), tools: [look.tool], input: 'go', onEvent: onEventInto(trace) });
      expect(result.reason).toBe('completed');
      expect(before(trace, 'start p#1', 'item c')).toBe(true);
      expect(before(trace, 'start p#2', 'item c')).toBe(true);
      expect(result.toolCalls).toBe(3);
      expect(outputFor(server.requests[1]?.body, 'p')).toBe('[1] functions.look:\nlook a\n\n[2] functions.look:\nlook b');
    });
  });

  it('answers a tool search of the same response and runs its calls early', async () => {
    const look = probe('look', { readOnly: true });
    const hidden = defineWorkerTool({
      name: 'hidden_tool',
      description: 'A deferred tool found by search.',
      schema: z.object({}),
      deferLoading: true,
      describeActivity: () => 'hidden',
      execute: () => ({ content: 'hidden' }),
    });
    const items = reply.items([
      { type: 'tool_search_call', call_id: 'ts', execution: 'client', arguments: { query: 'hidden' } },
      { type: 'function_call', call_id: 'c', name: 'look', arguments: '{"text":"x"}' },
    ]);
    await withServer([reply.slow(items, { delayMs: SLOW_MS }), reply.text('Done.')], async (server) => {
      const trace: string[] = [];
      const result = await runAgentLoop({ gateway: traced(gatewayFor(server), trace), tools: [look.tool, hidden], input: 'go', onEvent: onEventInto(trace) });
      expect(result.reason).toBe('completed');
      expect(before(trace, 'start c', 'complete')).toBe(true);
      const input = server.requests[1]?.body.input as Array<{ type: string; call_id?: string }>;
      expect(input.filter((item) => item.type.endsWith('_output')).map((item) => `${item.type} ${item.call_id}`)).toEqual([
        'tool_search_output ts',
        'function_call_output c',
      ]);
    });
  });
});
