import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { controlPlanes } from './testing.js';
import { driveWorkflows, FAN_OUT_SCRIPT } from './__fixtures__/workflow-driver.js';
import type { ClaimedTask } from './workflow-client.js';

describe.each(['postgres', 'pglite'] as const)('workflows on %s', (kind) => {
  const planes = controlPlanes(kind);
  afterEach(() => planes.cleanup());
  afterAll(() => planes.close());

  it('runs the fan-out example to the right result, every task once, counting replays', async () => {
    const { client } = await planes.open();
    const started = await client.workflows.start({ agentId: 'a', title: 'Research', script: FAN_OUT_SCRIPT, input: { topics: ['owls', 'bats', 'moths'] } });
    expect(started).toMatchObject({ status: 'running', replays: 0, taskCount: 0 });
    const seen: string[] = [];
    const answered = await driveWorkflows(client, (task: ClaimedTask) => {
      seen.push(task.title);
      expect(task.workflowTitle).toBe('Research');
      if (task.title === 'Summarise') return { text: `summary of ${(JSON.parse(task.prompt) as unknown[]).length}` };
      return { facts: [`${task.title} fact`] };
    });
    expect(answered).toBe(4);
    expect(seen.sort()).toEqual(['Research bats', 'Research moths', 'Research owls', 'Summarise']);
    const done = await client.workflows.get({ agentId: 'a', workflowId: started.id });
    expect(done).toMatchObject({ status: 'succeeded', result: { summary: 'summary of 3', count: 3 }, error: null, taskCount: 4 });
    expect(done.tasks.map((task) => [task.sequence, task.status, task.attempts])).toEqual([
      [0, 'succeeded', 1],
      [1, 'succeeded', 1],
      [2, 'succeeded', 1],
      [3, 'succeeded', 1],
    ]);
    expect(done.tasks[3]!.prompt).toBe(JSON.stringify([{ facts: ['Research owls fact'] }, { facts: ['Research bats fact'] }, { facts: ['Research moths fact'] }]));
    expect(done.log.map((line) => line.text)).toEqual(['collected 3 notes']);
    // One advance to start, one per finished task (some may be folded together when they finish between advances).
    expect(done.replays).toBeGreaterThanOrEqual(3);
    expect(done.replays).toBeLessThanOrEqual(5);
    expect(done.finishedAt).not.toBeNull();
  });
});
