import { describe, expect, it } from 'vitest';
import type { ClaimedTask } from '../index.js';
import type { ContractPlane, ContractPlanes } from './contract-plane.js';
import { EXAMPLE_WORKFLOW_SCRIPT } from './example-workflow-script.js';
import { driveWorkflows } from './workflow-driver.js';

const TEXT = { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } };
const ask = (title: string) => `task({ title: ${JSON.stringify(title)}, prompt: 'Do ${title}.', result: ${JSON.stringify(TEXT)} })`;

async function advanceAll(plane: ContractPlane): Promise<number> {
  let count = 0;
  while ((await plane.client.advances.runNext({ workerId: 'w' })) !== null) count += 1;
  return count;
}

/** Workflows: scripts that fan out tasks, replayed to their result; submissions, cancels, limits, leases. */
export function describeWorkflowContract(planes: ContractPlanes): void {
  describe('workflows', () => {
    it('runs the fan-out example to the right result, every task once, counting replays', async () => {
      const { client } = await planes.open();
      const started = await client.workflows.start({ agentId: 'a', title: 'Research', script: EXAMPLE_WORKFLOW_SCRIPT, input: { topics: ['owls', 'bats', 'moths'] } });
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

    it('lets the script catch a failed task, and fails the workflow with an uncaught error', async () => {
      const plane = await planes.open();
      const { client } = plane;
      const caught = await client.workflows.start({ agentId: 'a', title: 'Catch', script: `try { await ${ask('x')}; } catch (e) { return 'recovered: ' + e.message; }` });
      const thrown = await client.workflows.start({ agentId: 'a', title: 'Throw', script: `await ${ask('y')}; throw new Error('not reached');` });
      await driveWorkflows(client, () => ({ fail: 'the site was down' }));
      expect(await client.workflows.get({ agentId: 'a', workflowId: caught.id })).toMatchObject({ status: 'succeeded', result: 'recovered: Task "x" failed: the site was down' });
      expect(await client.workflows.get({ agentId: 'a', workflowId: thrown.id })).toMatchObject({ status: 'failed', error: 'Task "y" failed: the site was down', result: null });
    });

    it('cancels: queued tasks cancelled, a running task told to stop and refused, nothing runs again', async () => {
      const plane = await planes.open();
      const { client } = plane;
      const started = await client.workflows.start({ agentId: 'a', title: 'Cancel', script: `return await Promise.all([${ask('a')}, ${ask('b')}]);` });
      await advanceAll(plane);
      const running = (await client.tasks.claim({ workerId: 'w' }))!;
      await expect(client.workflows.cancel({ agentId: 'other', workflowId: started.id })).rejects.toMatchObject({ code: 'workflow_not_found' });
      expect(await client.workflows.cancel({ agentId: 'a', workflowId: started.id })).toMatchObject({ status: 'cancelled', error: 'The workflow was cancelled.' });
      expect(await client.tasks.heartbeat({ taskId: running.id, leaseToken: running.leaseToken })).toEqual({ keepRunning: false, status: 'cancelled' });
      await expect(client.tasks.submit({ taskId: running.id, leaseToken: running.leaseToken, result: { text: 'x' } })).rejects.toMatchObject({ code: 'task_not_running' });
      expect(await client.tasks.claim({ workerId: 'w' })).toBeNull();
      expect(await client.advances.runNext({ workerId: 'w' })).toBeNull();
      const details = await client.workflows.get({ agentId: 'a', workflowId: started.id });
      expect(details.tasks.map((task) => task.status)).toEqual(['cancelled', 'cancelled']);
      expect(await client.workflows.cancel({ agentId: 'a', workflowId: started.id })).toMatchObject({ status: 'cancelled' });
    });

    it('queues a background job for the agent when a workflow with notifyOnFinish finishes', async () => {
      const plane = await planes.open();
      const { client } = plane;
      const started = await client.workflows.start({ agentId: 'a', title: 'Report back', script: `return { answer: (await ${ask('q')}).text };`, notifyOnFinish: true });
      await driveWorkflows(client, () => ({ text: '42' }));
      const jobs = await client.jobs.list({ agentId: 'a' });
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ kind: 'background', status: 'queued', title: 'Workflow succeeded: Report back' });
      expect(jobs[0]!.prompt).toContain(`Your workflow "Report back" (id ${started.id}) succeeded.`);
      expect(jobs[0]!.prompt).toContain('"answer": "42"');
      expect((await client.work.claim({ workerId: 'w' }))?.id).toBe(jobs[0]!.id);
    });

    it('refuses scripts that do not compile or are too large, inputs that are not JSON, and too many running workflows', async () => {
      const plane = await planes.open({ workflowLimits: { maxRunningPerAgent: 1, maxScriptBytes: 100 } });
      const { client } = plane;
      await expect(client.workflows.start({ agentId: 'a', title: 't', script: 'const x = ;' })).rejects.toMatchObject({
        code: 'script_invalid',
        message: expect.stringMatching(/^The workflow script does not compile: SyntaxError: .*\(line 1, column \d+\)\.$/),
      });
      await expect(client.workflows.start({ agentId: 'a', title: 't', script: `return ${'1 + '.repeat(40)}1;` })).rejects.toMatchObject({ code: 'script_too_large' });
      const deep = await planes.open({ workflowLimits: { maxScriptBytes: 100_000 } });
      await expect(deep.client.workflows.start({ agentId: 'a', title: 't', script: `return ${'['.repeat(60_000)}` })).rejects.toMatchObject({
        code: 'script_invalid',
        message: expect.stringMatching(/stack overflow/),
      });
      expect(await deep.client.workflows.start({ agentId: 'a', title: 't', script: 'return 1' })).toMatchObject({ status: 'running' });
      await expect(client.workflows.start({ agentId: 'a', title: 't', script: 'return 1', input: 10n as never })).rejects.toMatchObject({ code: 'input_invalid' });
      // A first task whose result schema is not closed is refused at start, with the reason.
      await expect(client.workflows.start({ agentId: 'a', title: 't', script: `return await ${'task'}({ title: 'x', prompt: 'y', result: {} });` })).rejects.toMatchObject({
        code: 'result_schema_invalid',
        message: expect.stringMatching(/^The workflow's first tasks cannot run: task\(\) "x": the result schema is not a closed schema \(at \$: the root must be an object schema/),
      });
      await client.workflows.start({ agentId: 'a', title: 't', script: 'return 2' });
      await expect(client.workflows.start({ agentId: 'a', title: 't', script: 'return 1' })).rejects.toMatchObject({ code: 'workflow_limit_reached' });
      expect(await client.workflows.start({ agentId: 'b', title: 't', script: 'return 1' })).toMatchObject({ status: 'running' });
    });

    it('fails a workflow that hits a sandbox limit with a clear error, and goes on advancing others', async () => {
      const plane = await planes.open({ workflowLimits: { cpuTimeLimitMs: 200, maxTasksPerWorkflow: 20 } });
      const { client } = plane;
      const loop = await client.workflows.start({ agentId: 'a', title: 'Loop', script: 'while (true) {}' });
      const bomb = await client.workflows.start({ agentId: 'a', title: 'Bomb', script: `for (;;) ${ask('t')};` });
      const fine = await client.workflows.start({ agentId: 'a', title: 'Fine', script: 'return input.n + 1', input: { n: 1 } });
      await advanceAll(plane);
      expect(await client.workflows.get({ agentId: 'a', workflowId: loop.id })).toMatchObject({ status: 'failed', error: expect.stringMatching(/CPU-time limit of 200 ms/) });
      expect(await client.workflows.get({ agentId: 'a', workflowId: bomb.id })).toMatchObject({
        status: 'failed',
        error: 'The workflow asked for more than 20 tasks, the most one workflow may create.',
        tasks: [],
      });
      expect(await client.workflows.get({ agentId: 'a', workflowId: fine.id })).toMatchObject({ status: 'succeeded', result: 2, replays: 1 });
    });

    it('gives a task whose worker stopped heartbeating to another worker, and fails it after its attempts', async () => {
      const plane = await planes.open({ workflowLimits: { taskLeaseSeconds: 1, maxTaskAttempts: 2 } });
      const { client } = plane;
      const started = await client.workflows.start({ agentId: 'a', title: 'Lease', script: `try { return (await ${ask('slow')}).text; } catch (e) { return e.message; }` });
      await advanceAll(plane);
      const first = (await client.tasks.claim({ workerId: 'w1' }))!;
      expect(await client.tasks.claim({ workerId: 'w2' })).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 1300));
      const second = (await client.tasks.claim({ workerId: 'w2' }))!;
      expect(second).toMatchObject({ id: first.id, attempts: 2, workerId: 'w2' });
      expect(await client.tasks.heartbeat({ taskId: first.id, leaseToken: first.leaseToken })).toEqual({ keepRunning: false, status: 'running' });
      await expect(client.tasks.submit({ taskId: first.id, leaseToken: first.leaseToken, result: { text: 'stale' } })).rejects.toMatchObject({ code: 'lease_lost' });
      await new Promise((resolve) => setTimeout(resolve, 1300));
      expect(await client.tasks.claim({ workerId: 'w3' })).toBeNull();
      // Failed once its lease ran out with no attempt left: that worker's late answer is refused.
      await expect(client.tasks.fail({ taskId: first.id, leaseToken: second.leaseToken, error: 'late' })).rejects.toMatchObject({ code: 'lease_lost' });
      await advanceAll(plane);
      expect(await client.workflows.get({ agentId: 'a', workflowId: started.id })).toMatchObject({
        status: 'succeeded',
        result: 'Task "slow" failed: The worker running this task stopped responding 2 times; it is not retried again.',
      });
    });
  });
}
