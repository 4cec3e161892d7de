import { defineWorkerTool, type ApprovalRequest } from '@core/runtime';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCliApprovalPolicy } from './cli-approval-policy.js';

const remove = defineWorkerTool({
  name: 'remove',
  description: 'Deletes a path.',
  schema: z.object({ path: z.string() }),
  isDestructive: true,
  describeActivity: (params) => `Deleting ${params.path}`,
  execute: () => ({ content: 'ok' }),
});

const request = (path: string): ApprovalRequest => ({ callId: path, toolName: 'remove', tool: remove, params: { path }, label: `Deleting ${path}`, step: 1 });

/** A policy in `ask` mode answering from `answers`, recording what it wrote and how many lines it read. */
function asking(answers: string[], rules = { allow: [] as string[], deny: [] as string[] }) {
  let written = '';
  let reads = 0;
  const policy = createCliApprovalPolicy({
    mode: 'ask',
    rules: { ...rules, hold: [], background: 'allow' },
    write: (text) => {
      written += text;
    },
    readLine: async () => {
      reads += 1;
      return answers.shift();
    },
  });
  return { policy, written: () => written, reads: () => reads };
}

describe('the terminal approval policy', () => {
  it('asks with the label and arguments; y allows once, a allows the tool for the rest of the turn', async () => {
    const terminal = asking(['y', 'a']);
    expect(await terminal.policy(request('a.md'))).toEqual({ action: 'allow' });
    expect(terminal.written()).toContain('? Approval needed: Deleting a.md (remove, destructive)\n  arguments: {"path":"a.md"}\n');
    expect(await terminal.policy(request('b.md'))).toEqual({ action: 'allow' });
    expect(await terminal.policy(request('c.md'))).toEqual({ action: 'allow' });
    expect(terminal.reads()).toBe(2);
  });

  it('n denies with the reason typed next (none when left empty); other answers ask again', async () => {
    const terminal = asking(['maybe', 'n', 'keep it', 'n', '']);
    expect(await terminal.policy(request('a.md'))).toEqual({ action: 'deny', by: 'person', reason: 'keep it' });
    expect(await terminal.policy(request('b.md'))).toEqual({ action: 'deny', by: 'person' });
  });

  it('follows the deny and allow lists without asking, and denies when input ends', async () => {
    const listed = asking([], { allow: [], deny: ['remove'] });
    expect(await listed.policy(request('a.md'))).toEqual({ action: 'deny', by: 'config', reason: 'approvals.deny in the agent config lists "remove"' });
    expect(await asking([], { allow: ['remove'], deny: [] }).policy(request('a.md'))).toEqual({ action: 'allow' });
    expect(listed.reads()).toBe(0);
    expect(await asking([]).policy(request('a.md'))).toMatchObject({ action: 'deny', by: 'unattended', reason: expect.stringMatching(/no answer came/) });
  });

  it('says why no one could be asked: --approve never chosen, or no terminal to ask on', async () => {
    const rules = { allow: [], deny: [], hold: [], background: 'allow' as const };
    const never = createCliApprovalPolicy({ mode: 'never', rules, write: () => undefined });
    expect(await never(request('a.md'))).toEqual({ action: 'deny', by: 'unattended', reason: 'ankole run runs with --approve never' });
    const byDefault = createCliApprovalPolicy({ mode: 'never', modeChosen: false, rules, write: () => undefined });
    expect(await byDefault(request('a.md'))).toEqual({ action: 'deny', by: 'unattended', reason: 'ankole run has no terminal to ask on' });
    const askWithoutTerminal = createCliApprovalPolicy({ mode: 'ask', rules, write: () => undefined });
    expect(await askWithoutTerminal(request('a.md'))).toEqual({ action: 'deny', by: 'unattended', reason: 'ankole run has no terminal to ask on' });
  });
});
