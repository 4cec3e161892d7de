import { reply } from '@core/testkit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callNeedsApproval, type ApprovalPolicy } from './approval-policy.js';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import { eventLog, gatewayFor, historyProblem, outputFor, withServer } from '../__fixtures__/loop-harness.js';
import { runAgentLoop } from '../loop/run-agent-loop.js';
import type { AgentRunState } from '../loop/run-state.js';

/** Tools that log every run: `look` (read-only, parallel), `remove` (destructive), `note` (neither, sequential). */
function toolsWithLog() {
  const ran: string[] = [];
  const look = defineWorkerTool({
    name: 'look',
    description: 'Reads a path.',
    schema: z.object({ path: z.string() }),
    executionMode: 'parallel',
    isReadOnly: true,
    describeActivity: (params) => `Looking at ${params.path}`,
    execute: (params) => {
      ran.push(`look ${params.path}`);
      return { content: `contents of ${params.path}` };
    },
  });
  const remove = defineWorkerTool({
    name: 'remove',
    description: 'Deletes a path.',
    schema: z.object({ path: z.string() }),
    isDestructive: true,
    describeActivity: (params) => `Deleting ${params.path}`,
    execute: (params) => {
      ran.push(`remove ${params.path}`);
      return { content: `deleted ${params.path}` };
    },
  });
  const note = defineWorkerTool({
    name: 'note',
    description: 'Writes a note.',
    schema: z.object({ path: z.string() }),
    describeActivity: (params) => `Noting ${params.path}`,
    execute: (params) => {
      ran.push(`note ${params.path}`);
      return { content: `noted ${params.path}` };
    },
  });
  return { ran, tools: [look, remove, note] };
}

describe('needsApproval', () => {
  it('defaults to destructive tools only, and may be decided from the params', () => {
    const { tools } = toolsWithLog();
    const [look, remove, note] = tools;
    expect([look, remove, note].map((tool) => callNeedsApproval(tool!, { path: 'a' }))).toEqual([false, true, false]);
    const maybe = defineWorkerTool({
      name: 'maybe',
      description: 'Deletes under tmp freely.',
      schema: z.object({ path: z.string() }),
      isDestructive: true,
      needsApproval: (params) => !params.path.startsWith('tmp/'),
      describeActivity: (params) => params.path,
      execute: () => ({ content: 'ok' }),
    });
    expect(callNeedsApproval(maybe, { path: 'tmp/x' })).toBe(false);
    expect(callNeedsApproval(maybe, { path: 'notes.md' })).toBe(true);
  });
});

describe('runAgentLoop with an approval policy', () => {
  it('runs an allowed call; the policy sees the validated params and label; events carry the flags', async () => {
    const { ran, tools } = toolsWithLog();
    const seen: unknown[] = [];
    const policy: ApprovalPolicy = (request) => {
      seen.push({ tool: request.toolName, params: request.params, label: request.label });
      return { action: 'allow' };
    };
    await withServer([reply.functionCalls([{ name: 'remove', arguments: { path: 'a.md' }, callId: 'c1' }]), reply.text('Done.')], async (server) => {
      const log = eventLog();
      const result = await runAgentLoop({ gateway: gatewayFor(server), tools, input: 'go', approvalPolicy: policy, onEvent: log.onEvent });
      expect(result.reason).toBe('completed');
      expect(ran).toEqual(['remove a.md']);
      expect(seen).toEqual([{ tool: 'remove', params: { path: 'a.md' }, label: 'Deleting a.md' }]);
      expect(log.of('approval.requested')[0]).toMatchObject({ callId: 'c1', isDestructive: true, isReadOnly: false, params: { path: 'a.md' } });
      expect(log.of('approval.decided')[0]).toMatchObject({ callId: 'c1', decision: 'approved' });
      expect(log.of('activity.completed')[0]).toMatchObject({ callId: 'c1', isDestructive: true, isReadOnly: false, status: 'success' });
    });
  });

  it('denies with a reason: the next request carries the error output, the other calls run, the turn goes on', async () => {
    const { ran, tools } = toolsWithLog();
    await withServer(
      [
        reply.functionCalls([
          { name: 'look', arguments: { path: 'a.md' }, callId: 'c1' },
          { name: 'remove', arguments: { path: 'a.md' }, callId: 'c2' },
        ]),
        reply.text('Understood, I kept it.'),
      ],
      async (server) => {
        const log = eventLog();
        const result = await runAgentLoop({
          gateway: gatewayFor(server),
          tools,
          input: 'go',
          approvalPolicy: () => ({ action: 'deny', reason: 'that file is still needed' }),
          onEvent: log.onEvent,
        });
        expect(result.reason).toBe('completed');
        expect(ran).toEqual(['look a.md']);
        const output = outputFor(server.requests[1]!.body, 'c2');
        expect(output).toMatch(/^Error: not run: a person declined to approve this call of "remove"\. Reason: that file is still needed/);
        expect(log.of('approval.decided')[0]).toMatchObject({ callId: 'c2', decision: 'denied', reason: 'that file is still needed' });
        expect(log.of('activity.completed').find((event) => event.callId === 'c2')).toMatchObject({ status: 'error' });
      },
    );
  });

  it('asks, pauses with a plain-JSON run state, then resumes with mixed decisions without asking the model again', async () => {
    const { ran, tools } = toolsWithLog();
    await withServer(
      [
        reply.functionCalls([
          { name: 'look', arguments: { path: 'a.md' }, callId: 'c1' },
          { name: 'remove', arguments: { path: 'a.md' }, callId: 'c2' },
          { name: 'remove', arguments: { path: 'b.md' }, callId: 'c3' },
          { name: 'note', arguments: { path: 'c.md' }, callId: 'c4' },
        ]),
        reply.text('Removed a.md, kept b.md.'),
      ],
      async (server) => {
        const paused = await runAgentLoop({ gateway: gatewayFor(server), tools, input: 'tidy up', approvalPolicy: () => ({ action: 'ask' }) });
        expect(paused.reason).toBe('awaiting_approval');
        expect(server.requests).toHaveLength(1);
        // The read-only call ran; the note waits behind the held removals (it comes after them, sequentially).
        expect(ran).toEqual(['look a.md']);
        const state = JSON.parse(JSON.stringify(paused.runState)) as AgentRunState;
        expect(state.pending.map((pending) => [pending.callId, pending.label, pending.params])).toEqual([
          ['c2', 'Deleting a.md', { path: 'a.md' }],
          ['c3', 'Deleting b.md', { path: 'b.md' }],
        ]);

        const log = eventLog();
        const resumed = await runAgentLoop({
          gateway: gatewayFor(server),
          tools,
          input: [],
          approvalPolicy: () => ({ action: 'ask' }),
          resume: { state, decisions: { c2: { approved: true }, c3: { approved: false, reason: 'b.md is the backup' } } },
          onEvent: log.onEvent,
        });
        expect(resumed.reason).toBe('completed');
        expect(resumed.text).toBe('Removed a.md, kept b.md.');
        expect(resumed.steps).toBe(2);
        expect(ran).toEqual(['look a.md', 'remove a.md', 'note c.md']);
        const input = server.requests[1]!.body.input as Array<{ type: string; call_id?: string }>;
        const outputs = input.filter((item) => item.type === 'function_call_output').map((item) => item.call_id);
        expect(outputs).toEqual(['c1', 'c2', 'c3', 'c4']);
        expect(outputFor(server.requests[1]!.body, 'c2')).toBe('deleted a.md');
        expect(outputFor(server.requests[1]!.body, 'c3')).toMatch(/declined.*b\.md is the backup/);
        expect(log.of('approval.decided').map((event) => [event.callId, event.decision])).toEqual([
          ['c2', 'approved'],
          ['c3', 'denied'],
        ]);
        expect(historyProblem(resumed.items)).toBeUndefined();
      },
    );
  });

  it('pauses again when a held call gets no decision, and refuses a state that is not one', async () => {
    const { ran, tools } = toolsWithLog();
    await withServer([reply.functionCalls([{ name: 'remove', arguments: { path: 'a.md' }, callId: 'c1' }])], async (server) => {
      const paused = await runAgentLoop({ gateway: gatewayFor(server), tools, input: 'go', approvalPolicy: () => ({ action: 'ask' }) });
      const again = await runAgentLoop({ gateway: gatewayFor(server), tools, input: [], resume: { state: paused.runState!, decisions: {} } });
      expect(again.reason).toBe('awaiting_approval');
      expect(again.runState?.pending.map((pending) => pending.callId)).toEqual(['c1']);
      expect(ran).toEqual([]);
      const broken = await runAgentLoop({ gateway: gatewayFor(server), tools, input: [], resume: { state: { version: 2 } as never, decisions: {} } });
      expect(broken).toMatchObject({ reason: 'error' });
      expect(broken.error).toMatch(/Not an agent run state/);
      expect(server.requests).toHaveLength(1);
    });
  });
});
