import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { callNeedsApproval, defineWorkerTool } from '@core/runtime';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readWorkerApprovalRules, requireListedApprovals, workerApprovalPolicy } from './worker-approval-policy.js';

const tool = (name: string, isReadOnly: boolean) =>
  defineWorkerTool({ name, description: name, schema: z.object({}), isReadOnly, isDestructive: !isReadOnly, describeActivity: () => name, execute: () => ({ content: '' }) });

describe('background approvals', () => {
  it('hold calls that need approval when the agent has no config', async () => {
    const configHome = await mkdtemp(path.join(tmpdir(), 'ankole-approvals-default-'));
    try {
      const rules = await readWorkerApprovalRules('nobody', { XDG_CONFIG_HOME: configHome });
      expect(rules).toEqual({ allow: [], deny: [], hold: [], otherwise: 'hold' });
      const command = tool('command', false);
      expect(await workerApprovalPolicy(rules)({ callId: 'c', toolName: 'command', tool: command, params: {}, label: 'Running', step: 1 })).toEqual({ action: 'ask' });
    } finally {
      await rm(configHome, { recursive: true, force: true });
    }
  });

  it("deny as the config's, naming the rule: the deny list, and background: deny for the tools in no list", async () => {
    const command = tool('command', false);
    const call = (name: string) => ({ callId: 'c', toolName: name, tool: command, params: {}, label: 'Running', step: 1 });
    const policy = workerApprovalPolicy({ allow: [], deny: ['command'], hold: ['delete_page'], otherwise: 'deny' });
    expect(await policy(call('command'))).toEqual({ action: 'deny', by: 'config', reason: 'approvals.deny in the agent config lists "command"' });
    expect(await policy(call('write_file'))).toEqual({ action: 'deny', by: 'config', reason: 'approvals.background in the agent config is "deny" for background work' });
    expect(await policy(call('delete_page'))).toEqual({ action: 'ask' });
  });

  it('make a tool the config lists in hold or deny need approval, whatever its flags', () => {
    const [fetch, submit, search] = requireListedApprovals([tool('web_fetch', true), tool('submit_result', false), tool('web_search', true)], {
      deny: ['web_fetch'],
      hold: ['submit_result'],
    });
    expect([callNeedsApproval(fetch!, {}), callNeedsApproval(submit!, {}), callNeedsApproval(search!, {})]).toEqual([true, true, false]);
  });
});
