import { reply } from '@core/testkit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventLog, gatewayFor, outputFor, withServer } from '../__fixtures__/loop-harness.js';
import { runAgentLoop } from '../loop/run-agent-loop.js';
import { agentToolMap } from '../tool/agent-tool-map.js';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import type { ApprovalPolicy } from './approval-policy.js';
import { declinedMessage } from './call-denial.js';
import { dispatchToolCalls, type FunctionCallItem } from './dispatch-tool-calls.js';

/** A destructive `remove` tool (its calls need approval) that records what it ran. */
function removeTool(ran: string[]) {
  return defineWorkerTool({
    name: 'remove',
    description: 'Deletes a path.',
    schema: z.object({ path: z.string() }),
    isDestructive: true,
    describeActivity: (params) => `Deleting ${params.path}`,
    execute: (params) => {
      ran.push(params.path);
      return { content: `deleted ${params.path}` };
    },
  });
}

function removeCall(path: string, callId: string): FunctionCallItem {
  return { type: 'function_call', call_id: callId, name: 'remove', arguments: JSON.stringify({ path }) };
}

describe('declinedMessage', () => {
  it("words a person's denial as before when `by` is left out", () => {
    expect(declinedMessage('remove', 'keep it')).toBe(
      'not run: a person declined to approve this call of "remove". Reason: keep it Do not repeat the same call; adapt to the reason or ask the user.',
    );
    expect(declinedMessage('remove', undefined, 'person')).toContain('No reason was given.');
  });

  it('says the configuration forbids the call, naming the rule, and what to do instead', () => {
    expect(declinedMessage('command', 'approvals.deny lists "command"', 'config')).toBe(
      'not run: the agent\'s configuration does not allow this call of "command" (rule: approvals.deny lists "command"). Do not repeat the call; do the task another way, or tell the user the configuration denies this tool.',
    );
  });

  it('says no one could be asked, and why', () => {
    expect(declinedMessage('command', 'ankole run has no terminal to ask on', 'unattended')).toBe(
      'not run: this call of "command" needs a person\'s approval and no one could be asked (ankole run has no terminal to ask on). Do not repeat the call; do the task without it, or tell the user it needs their approval.',
    );
  });
});

describe('runAgentLoop: who denied a call', () => {
  it('words each denial for its source and puts the source in approval.decided and activity.completed', async () => {
    const ran: string[] = [];
    const policy: ApprovalPolicy = (request) => {
      const path = (request.params as { path: string }).path;
      if (path === 'config.md') return { action: 'deny', by: 'config', reason: 'approvals.deny lists "remove"' };
      if (path === 'nobody.md') return { action: 'deny', by: 'unattended', reason: 'no terminal to ask on' };
      return { action: 'deny', reason: 'still needed' };
    };
    const calls = [
      { name: 'remove', arguments: { path: 'config.md' }, callId: 'c1' },
      { name: 'remove', arguments: { path: 'nobody.md' }, callId: 'c2' },
      { name: 'remove', arguments: { path: 'person.md' }, callId: 'c3' },
    ];
    await withServer([reply.functionCalls(calls), reply.text('Kept them all.')], async (server) => {
      const log = eventLog();
      const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [removeTool(ran)], input: 'go', approvalPolicy: policy, onEvent: log.onEvent });
      expect(result.reason).toBe('completed');
      expect(ran).toEqual([]);
      const next = server.requests[1]!.body;
      expect(outputFor(next, 'c1')).toMatch(
        /^Error: not run: the agent's configuration does not allow this call of "remove" \(rule: approvals\.deny lists "remove"\)\./,
      );
      expect(outputFor(next, 'c2')).toMatch(
        /^Error: not run: this call of "remove" needs a person's approval and no one could be asked \(no terminal to ask on\)\./,
      );
      expect(outputFor(next, 'c3')).toMatch(/^Error: not run: a person declined to approve this call of "remove"\. Reason: still needed/);
      expect(log.of('approval.decided').map((event) => [event.callId, event.decision, event.by])).toEqual([
        ['c1', 'denied', 'config'],
        ['c2', 'denied', 'unattended'],
        ['c3', 'denied', 'person'],
      ]);
      expect(log.of('activity.completed').map((event) => [event.callId, event.status, event.denial])).toEqual([
        ['c1', 'error', { by: 'config', reason: 'approvals.deny lists "remove"' }],
        ['c2', 'error', { by: 'unattended', reason: 'no terminal to ask on' }],
        ['c3', 'error', { by: 'person', reason: 'still needed' }],
      ]);
    });
  });

  it('counts a policy that throws as no one could be asked', async () => {
    await withServer([reply.functionCalls([{ name: 'remove', arguments: { path: 'a.md' }, callId: 'c1' }]), reply.text('ok')], async (server) => {
      const log = eventLog();
      const approvalPolicy: ApprovalPolicy = () => {
        throw new Error('approver offline');
      };
      await runAgentLoop({ gateway: gatewayFor(server), tools: [removeTool([])], input: 'go', approvalPolicy, onEvent: log.onEvent });
      expect(outputFor(server.requests[1]!.body, 'c1')).toMatch(/no one could be asked \(the approval policy failed: approver offline\)/);
      expect(log.of('activity.completed')[0]?.denial).toEqual({ by: 'unattended', reason: 'the approval policy failed: approver offline' });
    });
  });

  it("records a held call declined on resume as a person's denial", async () => {
    const ran: string[] = [];
    await withServer([reply.functionCalls([{ name: 'remove', arguments: { path: 'a.md' }, callId: 'c1' }]), reply.text('Kept it.')], async (server) => {
      const tools = [removeTool(ran)];
      const paused = await runAgentLoop({ gateway: gatewayFor(server), tools, input: 'go', approvalPolicy: () => ({ action: 'ask' }) });
      const log = eventLog();
      await runAgentLoop({
        gateway: gatewayFor(server),
        tools,
        input: [],
        resume: { state: paused.runState!, decisions: { c1: { approved: false, reason: 'a.md is the backup' } } },
        onEvent: log.onEvent,
      });
      expect(ran).toEqual([]);
      expect(outputFor(server.requests[1]!.body, 'c1')).toMatch(
        /^Error: not run: a person declined to approve this call of "remove"\. Reason: a\.md is the backup/,
      );
      expect(log.of('approval.decided')[0]).toMatchObject({ decision: 'denied', by: 'person', reason: 'a.md is the backup' });
      expect(log.of('activity.completed')[0]?.denial).toEqual({ by: 'person', reason: 'a.md is the backup' });
    });
  });
});

describe('dispatchToolCalls: a gate that denies', () => {
  it('keeps who denied on the outcome; a gate that throws or answers nothing denies as unattended', async () => {
    const tools = agentToolMap([removeTool([])]);
    const outcomes = await dispatchToolCalls([removeCall('a.md', 'c1'), removeCall('b.md', 'c2'), removeCall('c.md', 'c3'), removeCall('d.md', 'c4')], tools, {
      gate: (call) => {
        if (call.call_id === 'c1') return { action: 'deny', by: 'config', reason: 'approvals.deny lists "remove"' };
        if (call.call_id === 'c2') throw new Error('gate broke');
        if (call.call_id === 'c3') return { action: 'deny', by: 'somebody' as never };
        return undefined as never;
      },
    });
    expect(outcomes.map((outcome) => outcome.denial)).toEqual([
      { by: 'config', reason: 'approvals.deny lists "remove"' },
      { by: 'unattended', reason: 'the approval check failed: gate broke' },
      { by: 'person' },
      { by: 'unattended', reason: 'the approval check gave no answer' },
    ]);
    expect(outcomes.every((outcome) => !outcome.started)).toBe(true);
    expect(outcomes[2]?.output.output).toMatch(/a person declined to approve this call of "remove"\. No reason was given\./);
  });
});
