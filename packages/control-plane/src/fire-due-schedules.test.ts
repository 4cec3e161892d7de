import { afterEach, describe, expect, it } from 'vitest';
import { createControlPlane } from './create-control-plane.js';
import { postgresTestDatabase } from './__fixtures__/test-databases.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('fireDueSchedules', () => {
  it('starts exactly one turn per fire time when several control planes fire at once (PostgreSQL)', async () => {
    const database = await postgresTestDatabase();
    cleanups.push(() => database.cleanup());
    const planes = await Promise.all([1, 2, 3].map(() => createControlPlane({ ...database.options(), background: false })));
    cleanups.push(async () => {
      await Promise.all(planes.map((plane) => plane.close()));
    });
    const runAt = new Date(Date.now() + 1_000).toISOString();
    const schedules = await Promise.all(
      Array.from({ length: 12 }, (_, index) => planes[0]!.client.schedules.create({ agentId: `agent-${index % 3}`, prompt: `p${index}`, runAt })),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_200));

    const fired = await Promise.all(planes.flatMap((plane) => [plane.fireDueSchedules(), plane.fireDueSchedules()]));
    expect(fired.reduce((sum, count) => sum + count, 0)).toBe(schedules.length);

    const claimed = [];
    for (let job = await planes[1]!.client.work.claim({ workerId: 'w' }); job !== null; job = await planes[1]!.client.work.claim({ workerId: 'w' })) {
      claimed.push(job);
    }
    expect(claimed.map((job) => job.scheduleId).sort()).toEqual(schedules.map((schedule) => schedule.id).sort());
    expect(claimed.every((job) => job.kind === 'scheduled' && job.agentId === schedules.find((s) => s.id === job.scheduleId)!.agentId)).toBe(true);
  });
});
