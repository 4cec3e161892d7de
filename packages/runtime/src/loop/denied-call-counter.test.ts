import { describe, expect, it } from 'vitest';
import { createDeniedCallCounter } from './denied-call-counter.js';

describe('createDeniedCallCounter', () => {
  it('counts the activity.completed events of denied calls by who denied them', () => {
    const counter = createDeniedCallCounter();
    const completed = {
      type: 'activity.completed',
      step: 1,
      callId: 'c',
      toolName: 'remove',
      label: 'x',
      status: 'error',
      durationMs: 0,
      repairs: [],
    } as const;
    counter.add({ ...completed, denial: { by: 'config', reason: 'approvals.deny lists "remove"' } });
    counter.add({ ...completed, denial: { by: 'person' } });
    counter.add({ ...completed, denial: { by: 'config' } });
    counter.add({ ...completed, status: 'success' });
    counter.add({ type: 'approval.decided', step: 1, callId: 'c', toolName: 'remove', label: 'x', decision: 'denied', by: 'unattended' });
    expect(counter.counts()).toEqual({ total: 3, config: 2, person: 1, unattended: 0 });
  });
});
