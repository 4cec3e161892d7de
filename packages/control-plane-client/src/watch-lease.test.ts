import { describe, expect, it } from 'vitest';
import { watchLease, type LeaseHeartbeat } from './watch-lease.js';

const MESSAGES = { cancelled: 'cancelled', lost: 'lost' };

/** A heartbeat that answers "running" until `end` is called, then the given status. */
function fakeClaim() {
  let answer: LeaseHeartbeat = { keepRunning: true, status: 'running' };
  let beats = 0;
  return {
    heartbeat: async (): Promise<LeaseHeartbeat> => {
      beats += 1;
      return answer;
    },
    end: (status: string) => (answer = { keepRunning: false, status }),
    beats: () => beats,
  };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('watchLease defer', () => {
  it('holds the abort back while deferred work is pending; stopped meanwhile, it never aborts', async () => {
    const claim = fakeClaim();
    const lease = watchLease({ heartbeat: claim.heartbeat, intervalMs: 10, messages: MESSAGES });
    let settle!: () => void;
    lease.defer(new Promise<void>((resolve) => (settle = resolve)));
    claim.end('succeeded');
    await tick(60);
    expect(claim.beats()).toBeGreaterThan(1);
    expect(lease.signal.aborted).toBe(false);
    // The deferred work turned out to be what ended the claim: the lease stops before it settles.
    lease.stop();
    settle();
    await tick(30);
    expect(lease.signal.aborted).toBe(false);
    expect(lease.reason()).toBeUndefined();
  });

  it('aborts once the deferred work settles (resolved or rejected) when the lease was not stopped', async () => {
    for (const outcome of ['resolve', 'reject'] as const) {
      const claim = fakeClaim();
      const lease = watchLease({ heartbeat: claim.heartbeat, intervalMs: 10, messages: MESSAGES });
      let settle!: () => void;
      lease.defer(new Promise<void>((resolve, reject) => (settle = outcome === 'resolve' ? resolve : () => reject(new Error('refused')))));
      claim.end('cancelled');
      await tick(40);
      expect(lease.signal.aborted).toBe(false);
      settle();
      await tick(30);
      expect(lease.signal.aborted).toBe(true);
      expect(lease.reason()).toBe('cancelled');
      lease.stop();
    }
  });

  it('without deferred work, aborts at the first heartbeat that finds the claim ended', async () => {
    const claim = fakeClaim();
    const lease = watchLease({ heartbeat: claim.heartbeat, intervalMs: 10, messages: MESSAGES });
    lease.defer(Promise.resolve());
    await tick(20);
    claim.end('running');
    await tick(40);
    expect(lease.signal.aborted).toBe(true);
    expect(lease.reason()).toBe('lost');
    expect((lease.signal.reason as Error).message).toBe('lost');
    lease.stop();
  });
});
