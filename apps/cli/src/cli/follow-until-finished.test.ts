import type { ControlPlaneChangeEvent, ControlPlaneChanges } from '@core/control-plane-client';
import { describe, expect, it } from 'vitest';
import { followUntilFinished } from './follow-until-finished.js';

/** Changes told by the test (`tell`), to the one subscriber a follow makes. */
function toldChanges() {
  let listener: ((event: ControlPlaneChangeEvent) => void) | undefined;
  let stopped = 0;
  const changes: ControlPlaneChanges = {
    async subscribe(heard) {
      listener = heard;
      return () => {
        stopped += 1;
        listener = undefined;
      };
    },
  };
  return { changes, tell: (event: ControlPlaneChangeEvent) => listener?.(event), stopped: () => stopped };
}

describe('followUntilFinished', () => {
  it('reads again when a change about the record comes (or a gap), not for changes of other records, and stops listening at the end', async () => {
    const { changes, tell, stopped } = toldChanges();
    const statuses = ['queued', 'running', 'succeeded'];
    let reads = 0;
    const seen: string[] = [];
    const followed = followUntilFinished({
      read: async () => ({ id: 'j1', status: statuses[Math.min(reads++, statuses.length - 1)]! }),
      finished: (status) => status === 'succeeded',
      onStatus: (record) => seen.push(record.status),
      changes,
      about: (change) => change.kind === 'job' && change.id === 'j1',
      // Far longer than the test may take: only a change can make it read again.
      fallbackMs: 600_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads).toBe(1);
    tell({ kind: 'job', id: 'other', agentId: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads).toBe(1);
    tell({ kind: 'job', id: 'j1', agentId: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads).toBe(2);
    tell({ kind: 'gap' });
    expect(await followed).toEqual({ id: 'j1', status: 'succeeded' });
    expect(seen).toEqual(['queued', 'running', 'succeeded']);
    expect(stopped()).toBe(1);
  });

  it('reads every intervalMs without changes', async () => {
    let reads = 0;
    const done = await followUntilFinished({
      read: async () => ({ status: ++reads >= 3 ? 'failed' : 'running' }),
      finished: (status) => status === 'failed',
      onStatus: () => undefined,
      intervalMs: 1,
    });
    expect(done.status).toBe('failed');
    expect(reads).toBe(3);
  });
});
