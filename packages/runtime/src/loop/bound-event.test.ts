import { describe, expect, it } from 'vitest';
import type { AgentEvent } from './agent-events.js';
import { boundEvent } from './bound-event.js';

describe('boundEvent', () => {
  it('cuts long strings anywhere in the event and says how much was left out', () => {
    const event: AgentEvent = {
      type: 'activity.completed',
      step: 1,
      callId: 'c1',
      toolName: 'read_file',
      label: 'Read notes.md',
      status: 'success',
      durationMs: 3,
      repairs: [],
      output: 'x'.repeat(35),
      details: { lines: ['short', 'y'.repeat(40)] },
    };
    const { event: bounded, truncatedStrings } = boundEvent(event, { maxStringChars: 20 });
    expect(truncatedStrings).toBe(2);
    expect(bounded).toMatchObject({ label: 'Read notes.md', output: `${'x'.repeat(20)}… [15 more characters left out]` });
    expect((bounded as { details: { lines: string[] } }).details.lines).toEqual(['short', `${'y'.repeat(20)}… [20 more characters left out]`]);
    expect(event).toMatchObject({ output: 'x'.repeat(35) });
  });

  it('never cuts between the two halves of a surrogate pair', () => {
    const event = { type: 'text.delta', delta: `${'a'.repeat(9)}😀😀` } as unknown as AgentEvent;
    const { event: bounded } = boundEvent(event, { maxStringChars: 10 });
    expect((bounded as unknown as { delta: string }).delta).toBe(`${'a'.repeat(9)}… [4 more characters left out]`);
    expect(/[\uD800-\uDFFF]/u.test((bounded as unknown as { delta: string }).delta)).toBe(false);
  });

  it('returns a short event as it is', () => {
    const event: AgentEvent = { type: 'text.completed', step: 1, text: 'Done.' };
    expect(boundEvent(event)).toEqual({ event, truncatedStrings: 0 });
    expect(boundEvent(event).event).toBe(event);
  });
});
