import type { AgentEvent, AgentLoopResult } from '@core/runtime';
import { describe, expect, it } from 'vitest';
import { createVirtualTerminal } from '../__fixtures__/virtual-terminal.js';
import { describeDeniedCalls, describeDenial } from './describe-denials.js';
import { createJsonRenderer } from './json-renderer.js';
import { createTerminalRenderer } from './terminal-renderer.js';

const outcome: AgentLoopResult = {
  reason: 'completed',
  steps: 2,
  text: 'Kept them.',
  items: [],
  usage: { inputTokens: 1200, outputTokens: 34, totalTokens: 1234 },
  toolCalls: 3,
  pendingItems: [],
  compactions: 0,
};

/** The `activity.completed` of a call the gate denied. */
function denied(callId: string, denial: { by: 'config' | 'person' | 'unattended'; reason?: string }): AgentEvent {
  return { type: 'activity.completed', step: 1, callId, toolName: 'command', label: `Running \`rm ${callId}\``, status: 'error', durationMs: 0, repairs: [], error: 'not run: …', denial };
}

describe('denied calls for people', () => {
  it('say who denied each call and why', () => {
    expect(describeDenial({ by: 'config', reason: 'approvals.deny in the agent config lists "command"' })).toBe(
      'denied by the config: approvals.deny in the agent config lists "command"',
    );
    expect(describeDenial({ by: 'person', reason: 'keep it' })).toBe('denied by a person: keep it');
    expect(describeDenial({ by: 'person' })).toBe('denied by a person: no reason given');
    expect(describeDenial({ by: 'unattended', reason: 'ankole run has no terminal to ask on' })).toBe('denied (no one could be asked): ankole run has no terminal to ask on');
  });

  it('count them in the summary, by who denied them', () => {
    expect(describeDeniedCalls({ total: 0, config: 0, person: 0, unattended: 0 })).toBeUndefined();
    expect(describeDeniedCalls({ total: 1, config: 1, person: 0, unattended: 0 })).toBe('1 call denied by the config');
    expect(describeDeniedCalls({ total: 2, config: 0, person: 2, unattended: 0 })).toBe('2 calls denied by people');
    expect(describeDeniedCalls({ total: 3, config: 1, person: 1, unattended: 1 })).toBe('3 calls denied (1 by the config, 1 by a person, 1 with no one to ask)');
  });

  it('the terminal renderer draws each denial and counts them in the closing line', () => {
    const terminal = createVirtualTerminal();
    const renderer = createTerminalRenderer({ output: terminal, live: false, color: false });
    renderer.event(denied('a', { by: 'config', reason: 'approvals.deny in the agent config lists "command"' }));
    renderer.event(denied('b', { by: 'person', reason: 'keep b' }));
    renderer.event(denied('c', { by: 'config', reason: 'approvals.deny in the agent config lists "command"' }));
    renderer.finish({ outcome, durationMs: 1500, interrupted: false, exitCode: 0 });
    expect(terminal.screen().split('\n')).toEqual([
      '✗ Running `rm a` (0 ms) denied by the config: approvals.deny in the agent config lists "command"',
      '✗ Running `rm b` (0 ms) denied by a person: keep b',
      '✗ Running `rm c` (0 ms) denied by the config: approvals.deny in the agent config lists "command"',
      '',
      '── Completed · 2 steps · 3 tool calls · 3 calls denied (2 by the config, 1 by a person) · 1,234 tokens (1,200 in, 34 out) · 1.5 s',
      '',
    ]);
  });

  it('the JSON renderer counts them in run.completed', () => {
    let written = '';
    const renderer = createJsonRenderer({
      write: (text: string) => {
        written += text;
      },
    });
    renderer.event(denied('a', { by: 'unattended', reason: 'ankole run has no terminal to ask on' }));
    renderer.finish({ outcome, durationMs: 10, interrupted: false, exitCode: 0 });
    const last = JSON.parse(written.trim().split('\n').at(-1) ?? '{}') as { type: string; deniedCalls: unknown };
    expect(last).toMatchObject({ type: 'run.completed', deniedCalls: { total: 1, config: 0, person: 0, unattended: 1 } });
  });
});
