import type { AgentEvent, AgentLoopResult } from '@core/runtime';
import { describe, expect, it } from 'vitest';
import { createVirtualTerminal } from '../__fixtures__/virtual-terminal.js';
import { createTerminalRenderer } from './terminal-renderer.js';

const outcome: AgentLoopResult = {
  reason: 'completed',
  steps: 2,
  text: 'Done.',
  items: [],
  usage: { inputTokens: 1200, outputTokens: 34, totalTokens: 1234 },
  toolCalls: 2,
  pendingItems: [],
  compactions: 0,
};

const header = { notice: 'Running the offline demo model.', offlineDemo: true, model: 'demo', home: '/h', agent: 'default', tools: 7 };

function started(callId: string, label: string): AgentEvent {
  return { type: 'activity.started', step: 1, callId, toolName: 'read_file', label, executionMode: 'parallel' };
}

function completed(callId: string, label: string, status: 'success' | 'error' = 'success'): AgentEvent {
  return {
    type: 'activity.completed',
    step: 1,
    callId,
    toolName: 'read_file',
    label,
    status,
    durationMs: 12,
    repairs: [],
    ...(status === 'error' ? { error: 'No such file' } : {}),
  };
}

describe('createTerminalRenderer on a terminal', () => {
  it('shows running tools as live spinner lines and replaces them with the completed lines', () => {
    const terminal = createVirtualTerminal();
    const renderer = createTerminalRenderer({ output: terminal, live: true, color: true });
    renderer.start(header);
    renderer.event({ type: 'step.started', step: 1 });
    renderer.event(started('a', 'Reading a.md'));
    renderer.event(started('b', 'Reading b.md'));
    const whileRunning = terminal.screen();
    expect(whileRunning).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Reading a\.md\n[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Reading b\.md$/);
    renderer.event(completed('b', 'Read b.md (3 lines)'));
    renderer.event(completed('a', 'Read a.md', 'error'));
    renderer.event({ type: 'text.delta', step: 2, delta: 'Do' });
    renderer.event({ type: 'text.delta', step: 2, delta: 'ne.' });
    renderer.event({ type: 'text.completed', step: 2, text: 'Done.' });
    renderer.event({ type: 'turn.completed', reason: 'completed', steps: 2, usage: outcome.usage, text: 'Done.' });
    renderer.finish({ outcome, durationMs: 1500, interrupted: false, exitCode: 0 });

    expect(terminal.screen().split('\n')).toEqual([
      'Running the offline demo model.',
      'Agent default · home /h · 7 tools',
      '',
      '✓ Read b.md (3 lines) (12 ms)',
      '✗ Read a.md (12 ms) error: No such file',
      'Done.',
      '',
      '── Completed · 2 steps · 2 tool calls · 1,234 tokens (1,200 in, 34 out) · 1.5 s',
      '',
    ]);
    expect(terminal.raw()).toContain('\u001b[32m✓\u001b[39m');
    expect(terminal.raw().endsWith('\n')).toBe(true);
    expect(terminal.raw()).toContain('\u001b[?25h');
  });

  it('draws the plan checklist of a presentation event', () => {
    const terminal = createVirtualTerminal();
    const renderer = createTerminalRenderer({ output: terminal, live: false, color: false });
    renderer.event({
      type: 'presentation',
      step: 1,
      callId: 'c',
      toolName: 'todo_write',
      event: {
        kind: 'checklist',
        title: 'Plan',
        items: [
          { id: '1', content: 'Write', status: 'completed' },
          { id: '2', content: 'Check', status: 'in_progress' },
          { id: '3', content: 'Report', status: 'pending' },
        ],
      },
    });
    renderer.event({ type: 'presentation', step: 1, callId: 'd', toolName: 'web_search', event: { kind: 'links', links: [{ title: 'Ankole', url: 'https://example.com/' }] } });
    expect(terminal.raw()).toBe('  Plan (1/3 done)\n    ✓ Write\n    ▸ Check\n    ○ Report\n  ↗ Ankole <https://example.com/>\n');
  });

  it('prints the links of a web search under its line, and the changed files in one list before the summary (piped)', () => {
    const terminal = createVirtualTerminal();
    const renderer = createTerminalRenderer({ output: terminal, live: false, color: true });
    playFilesAndLinks(renderer);
    expect(terminal.raw()).not.toContain('\u001b');
    expect(terminal.raw().split('\n')).toEqual([
      '… Searching the web for "ankole"',
      '✓ Searched the web for "ankole" (2 results) (12 ms)',
      '  ↗ Ankole-Watusi <https://en.wikipedia.org/wiki/Ankole-Watusi>',
      '  ↗ https://example.com/',
      '… Writing notes/a.md',
      '✓ Created notes/a.md (12 ms)',
      '… Editing notes/a.md',
      '✓ Edited notes/a.md (12 ms)',
      '… Writing notes/b.md',
      '✓ Updated notes/b.md (12 ms)',
      '',
      'Files changed',
      '  ▤ created notes/a.md (230 B)',
      '  ▤ updated notes/b.md (2.0 KB)',
      '',
      '── Completed · 2 steps · 2 tool calls · 1,234 tokens (1,200 in, 34 out) · 1.5 s',
      '',
    ]);
  });

  it('draws the same links and files on a terminal, with colours, once the live lines are gone', () => {
    const terminal = createVirtualTerminal();
    const renderer = createTerminalRenderer({ output: terminal, live: true, color: true });
    playFilesAndLinks(renderer);
    expect(terminal.screen().split('\n')).toEqual([
      '✓ Searched the web for "ankole" (2 results) (12 ms)',
      '  ↗ Ankole-Watusi <https://en.wikipedia.org/wiki/Ankole-Watusi>',
      '  ↗ https://example.com/',
      '✓ Created notes/a.md (12 ms)',
      '✓ Edited notes/a.md (12 ms)',
      '✓ Updated notes/b.md (12 ms)',
      '',
      'Files changed',
      '  ▤ created notes/a.md (230 B)',
      '  ▤ updated notes/b.md (2.0 KB)',
      '',
      '── Completed · 2 steps · 2 tool calls · 1,234 tokens (1,200 in, 34 out) · 1.5 s',
      '',
    ]);
    expect(terminal.raw()).toContain('\u001b[2m<https://en.wikipedia.org/wiki/Ankole-Watusi>\u001b[22m');
    expect(terminal.raw()).toContain('\u001b[1mFiles changed\u001b[22m');
  });

  it('leaves one blank line, not two, between the header and a summary that follows it at once', () => {
    const terminal = createVirtualTerminal();
    const renderer = createTerminalRenderer({ output: terminal, live: false, color: false });
    renderer.start(header);
    renderer.finish({ outcome: { ...outcome, reason: 'error', steps: 1, toolCalls: 0 }, durationMs: 40, interrupted: false, exitCode: 1 });
    expect(terminal.raw().split('\n')).toEqual([
      'Running the offline demo model.',
      'Agent default · home /h · 7 tools',
      '',
      '── Failed · 1 step · 0 tool calls · 1,234 tokens (1,200 in, 34 out) · 40 ms',
      '',
    ]);
  });

  it('puts the terminal back when the process must leave at once (a second Ctrl-C): live lines gone, cursor shown', () => {
    const terminal = createVirtualTerminal();
    const renderer = createTerminalRenderer({ output: terminal, live: true, color: true });
    renderer.start(header);
    renderer.event(started('a', 'Reading a.md'));
    expect(terminal.raw()).toContain('\u001b[?25l');
    renderer.release();
    expect(terminal.screen()).toBe('Running the offline demo model.\nAgent default · home /h · 7 tools\n\n');
    expect(terminal.raw().endsWith('\u001b[?25h')).toBe(true);
  });

  it('never lets a label or streamed text move the cursor or change colours', () => {
    const terminal = createVirtualTerminal();
    const renderer = createTerminalRenderer({ output: terminal, live: false, color: false });
    renderer.event(started('x', 'Reading \u001b[2Jevil\nname.md'));
    renderer.event(completed('x', 'Read \u001b[2Jevil\nname.md', 'error'));
    renderer.event({ type: 'text.delta', step: 1, delta: 'Hello \u001b[31mred\u001b[0m\r\nbye\u0007' });
    renderer.event({ type: 'text.completed', step: 1, text: '' });
    expect(terminal.raw()).toBe('… Reading [2Jevil name.md\n✗ Read [2Jevil name.md (12 ms) error: No such file\nHello [31mred[0m\nbye\n');
  });
});

/** A web search with links, a file created then edited, another file updated. */
function playFilesAndLinks(renderer: ReturnType<typeof createTerminalRenderer>): void {
  const activity = (callId: string, toolName: string, label: string, done: string, event: Record<string, unknown> & { kind: string }) => {
    renderer.event({ type: 'activity.started', step: 1, callId, toolName, label, executionMode: 'sequential' });
    renderer.event({ type: 'activity.completed', step: 1, callId, toolName, label: done, status: 'success', durationMs: 12, repairs: [] });
    renderer.event({ type: 'presentation', step: 1, callId, toolName, event });
  };
  activity('s', 'web_search', 'Searching the web for "ankole"', 'Searched the web for "ankole" (2 results)', {
    kind: 'links',
    links: [
      { title: 'Ankole-Watusi', url: 'https://en.wikipedia.org/wiki/Ankole-Watusi' },
      { title: '', url: 'https://example.com/' },
    ],
  });
  activity('w1', 'write_file', 'Writing notes/a.md', 'Created notes/a.md', { kind: 'file', path: 'notes/a.md', action: 'created', bytes: 214 });
  activity('e1', 'edit_file', 'Editing notes/a.md', 'Edited notes/a.md', { kind: 'file', path: 'notes/a.md', action: 'edited', bytes: 230 });
  activity('w2', 'write_file', 'Writing notes/b.md', 'Updated notes/b.md', { kind: 'file', path: 'notes/b.md', action: 'updated', bytes: 2048 });
  renderer.event({ type: 'turn.completed', reason: 'completed', steps: 2, usage: outcome.usage, text: '' });
  renderer.finish({ outcome, durationMs: 1500, interrupted: false, exitCode: 0 });
}
