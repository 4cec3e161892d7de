import { describe, expect, it } from 'vitest';
import { watchLease, type LeaseHeartbeat } from './watch-lease.js';

const MESSAGES = { cancelled: 'cancelled', lost: 'lost' };

/** A heartbeat that answers "running" until `end` is called, then the given status (settled by this lease or not). */
function fakeClaim() {
  let answer: LeaseHeartbeat = { keepRunning: true, status: 'running' };
  let beats = 0;
  return {
    heartbeat: async (): Promise<LeaseHeartbeat> => {
      beats += 1;
      return answer;
    },
    end: (status: string, finishedByThisLease = false) => (answer = { keepRunning: false, status, ...(finishedByThisLease ? { finishedByThisLease } : {}) }),
    beats: () => beats,
  };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('watchLease', () => {
  it('stops cleanly when a heartbeat answers "finished by this lease": no abort, reason finished, no more beats', async () => {
    const claim = fakeClaim();
    const lease = watchLease({ heartbeat: claim.heartbeat, intervalMs: 10, messages: MESSAGES });
    await tick(30);
    claim.end('succeeded', true);
    await tick(40);
    const beats = claim.beats();
    await tick(40);
    expect(claim.beats()).toBe(beats);
    expect(lease.signal.aborted).toBe(false);
    expect(lease.reason()).toBe('finished');
    lease.stop();
  });

  it('a claim that ended without this lease settling it aborts: cancelled, or lost (even when it succeeded)', async () => {
    for (const [status, reason] of [
      ['cancelled', 'cancelled'],
      ['succeeded', 'lost'],
      ['running', 'lost'],
    ] as const) {
      const claim = fakeClaim();
      const lease = watchLease({ heartbeat: claim.heartbeat, intervalMs: 10, messages: MESSAGES });
      await tick(20);
      claim.end(status);
      await tick(40);
      expect(lease.signal.aborted).toBe(true);
      expect(lease.reason()).toBe(reason);
      expect((lease.signal.reason as Error).message).toBe(reason);
      lease.stop();
    }
  });

  it('stopped before the claim ends, it never aborts', async () => {
    const claim = fakeClaim();
    const lease = watchLease({ heartbeat: claim.heartbeat, intervalMs: 10, messages: MESSAGES });
    await tick(20);
    lease.stop();
    claim.end('cancelled');
    await tick(40);
    expect(lease.signal.aborted).toBe(false);
    expect(lease.reason()).toBeUndefined();
  });
});
