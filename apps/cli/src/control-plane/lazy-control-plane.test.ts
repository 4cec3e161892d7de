import type { ControlPlane } from '@core/control-plane';
import type { ControlPlaneClient } from '@core/control-plane-client';
import { describe, expect, it } from 'vitest';
import { createLazyControlPlane } from './lazy-control-plane.js';

/** A control plane whose `jobs.list` answers with the agent it was asked about, and that counts its closes. */
function fakeControlPlane(closes: string[]): Pick<ControlPlane, 'client' | 'close'> {
  const client = { jobs: { list: async (input: { agentId: string }) => [{ id: `job-of-${input.agentId}` }] } } as unknown as ControlPlaneClient;
  return { client, close: async () => void closes.push('closed') };
}

describe('createLazyControlPlane', () => {
  it('opens nothing until a call, then once for concurrent calls; closes what it opened', async () => {
    const closes: string[] = [];
    let opens = 0;
    const lazy = createLazyControlPlane(async () => {
      opens += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return fakeControlPlane(closes);
    });
    const jobs = lazy.client.jobs;
    expect(opens).toBe(0);
    expect(lazy.opened()).toBe(false);
    const [first, second] = await Promise.all([jobs.list({ agentId: 'a' }), lazy.client.jobs.list({ agentId: 'b' })]);
    expect([first, second]).toEqual([[{ id: 'job-of-a' }], [{ id: 'job-of-b' }]]);
    expect(opens).toBe(1);
    await lazy.close();
    expect(closes).toEqual(['closed']);
    await expect(jobs.list({ agentId: 'a' })).rejects.toThrow('The control plane was already closed');
  });

  it('a failed open fails that call; the next call tries again', async () => {
    let opens = 0;
    const lazy = createLazyControlPlane(async () => {
      opens += 1;
      if (opens === 1) throw new Error('The embedded database is in use.');
      return fakeControlPlane([]);
    });
    await expect(lazy.client.jobs.list({ agentId: 'a' })).rejects.toThrow('The embedded database is in use.');
    await expect(lazy.client.jobs.list({ agentId: 'a' })).resolves.toEqual([{ id: 'job-of-a' }]);
    expect(opens).toBe(2);
  });

  it('closing a control plane that was never opened does nothing; the client is not a promise', async () => {
    let opens = 0;
    const lazy = createLazyControlPlane(async () => {
      opens += 1;
      return fakeControlPlane([]);
    });
    // Awaiting the client or one of its APIs must not open anything (they are not thenables).
    await Promise.resolve(lazy.client);
    await Promise.resolve(lazy.client.jobs);
    await lazy.close();
    expect(opens).toBe(0);
  });
});
