import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { controlPlanes } from './testing.js';
import type { ControlPlane } from './create-control-plane.js';

const TEXT = { type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } };
const ask = (title: string) => `task({ title: ${JSON.stringify(title)}, prompt: 'Do ${title}.', result: ${JSON.stringify(TEXT)} })`;

async function advanceAll(plane: ControlPlane): Promise<number> {
  let count = 0;
  while ((await plane.client.advances.runNext({ workerId: 'w' })) !== null) count += 1;
  return count;
}

describe.each(['postgres', 'pglite'] as const)(`workflows on %s (what the contract suite cannot reach through a client: the stored rows, the engine's options)`, (kind) => {
  const planes = controlPlanes(kind);
  afterEach(() => planes.cleanup());
  afterAll(() => planes.close());

  it('fails a workflow whose replay asks for a different task than the journal holds', async () => {
    const plane = await planes.open();
    const { client } = plane;
    const started = await client.workflows.start({ agentId: 'a', title: 'Drift', script: `return (await ${ask('first')}).text;` });
    await advanceAll(plane);
    // The script changes under the journal (as a script depending on anything but input and task results would).
    await plane.driver.query(`UPDATE ${plane.schema}.workflow SET script = $2 WHERE id = $1`, [started.id, `return (await ${ask('second')}).text;`]);
    const task = (await client.tasks.claim({ workerId: 'w' }))!;
    expect(await client.tasks.submit({ taskId: task.id, leaseToken: task.leaseToken, result: { text: 'done' } })).toMatchObject({ accepted: true });
    await advanceAll(plane);
    const failed = await client.workflows.get({ agentId: 'a', workflowId: started.id });
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^Non-deterministic script: task\(\) call #1 asked for "second", but the journal holds "first"/);
  });

  it('refuses a later task() whose result schema is not closed in the advance that reaches it: nothing is queued, an uncaught refusal fails the workflow', async () => {
    const plane = await planes.open();
    const { client } = plane;
    const open = JSON.stringify({ type: 'object', properties: { summary: { type: 'string' } } });
    const later = `const { text } = await ${ask('first')}; return await task({ title: 'summarise', prompt: 'Sum up ' + text, result: ${open} });`;
    const caught = `const { text } = await ${ask('first')}; try { await task({ title: 'summarise', prompt: 'Sum up ' + text, result: ${open} }); } catch (error) { log(error.message); return 'caught'; }`;
    // Both pass the check at start: their first task's schema is closed.
    const uncaughtRun = await client.workflows.start({ agentId: 'a', title: 'Later', script: later });
    const caughtRun = await client.workflows.start({ agentId: 'a', title: 'Caught', script: caught });
    await advanceAll(plane);
    for (let index = 0; index < 2; index++) {
      const first = (await client.tasks.claim({ workerId: 'w' }))!;
      expect(first.title).toBe('first');
      await client.tasks.submit({ taskId: first.id, leaseToken: first.leaseToken, result: { text: 'notes' } });
    }
    await advanceAll(plane);
    expect(await client.tasks.claim({ workerId: 'w' })).toBeNull();
    const refusal = /^task\(\) "summarise": the result schema is not a closed schema \(at \$: objects must set "additionalProperties": false in strict mode; at \$: every property must be listed in "required" .*; missing: summary\), so no worker could submit its result; fix it in the script\.$/;
    const failed = await client.workflows.get({ agentId: 'a', workflowId: uncaughtRun.id });
    expect(failed).toMatchObject({ status: 'failed', taskCount: 1 });
    expect(failed.error!.replace(/^TypeError: /, '')).toMatch(refusal);
    const recovered = await client.workflows.get({ agentId: 'a', workflowId: caughtRun.id });
    expect(recovered).toMatchObject({ status: 'succeeded', result: 'caught', taskCount: 1 });
    expect(recovered.log.map((line) => line.text)).toEqual([expect.stringMatching(refusal)]);
  });

  it('validates submissions against the stored schema, and refuses them without the lease, twice, or for unknown tasks', async () => {
    const plane = await planes.open();
    const { client } = plane;
    await client.workflows.start({ agentId: 'a', title: 'Submit', script: `return (await ${ask('one')}).text;` });
    await advanceAll(plane);
    const task = (await client.tasks.claim({ workerId: 'w' }))!;
    expect(task.resultSchema).toEqual(TEXT);
    expect(Object.keys(task.resultSchema)).toEqual(Object.keys(TEXT));
    const wrong = await client.tasks.submit({ taskId: task.id, leaseToken: task.leaseToken, result: { text: 3, extra: true } });
    expect(wrong).toEqual({
      accepted: false,
      errors: expect.arrayContaining([
        { path: '$.text', message: 'must be string' },
        { path: '$.extra', message: 'is not allowed (the schema does not define this property)' },
      ]),
    });
    await expect(client.tasks.submit({ taskId: task.id, leaseToken: '00000000-0000-4000-8000-000000000000', result: { text: 'x' } })).rejects.toMatchObject({
      name: 'ControlPlaneConflictError',
      code: 'lease_lost',
    });
    const right = await client.tasks.submit({ taskId: task.id, leaseToken: task.leaseToken, result: { text: 'fine' } });
    expect(right).toMatchObject({ accepted: true, task: { status: 'succeeded', result: { text: 'fine' } } });
    await expect(client.tasks.submit({ taskId: task.id, leaseToken: task.leaseToken, result: { text: 'again' } })).rejects.toMatchObject({ code: 'already_submitted' });
    await expect(client.tasks.submit({ taskId: '00000000-0000-4000-8000-000000000000', leaseToken: task.leaseToken, result: {} })).rejects.toMatchObject({
      code: 'task_not_found',
    });
    expect(await client.tasks.fail({ taskId: task.id, leaseToken: task.leaseToken, error: 'late' })).toMatchObject({ status: 'succeeded' });
    const { rows } = await plane.driver.query<{ result: unknown }>(`SELECT result FROM ${plane.schema}.task WHERE id = $1`, [task.id]);
    expect(rows).toEqual([{ result: { text: 'fine' } }]);
    await advanceAll(plane);
    expect((await client.workflows.list({ agentId: 'a' }))[0]).toMatchObject({ status: 'succeeded', result: 'fine' });
  });

  it('refuses limits that are not positive, or an advance lease shorter than a run', async () => {
    await expect(planes.open({ workflowLimits: { maxTasksPerWorkflow: 0 } })).rejects.toMatchObject({ code: 'options_invalid', field: 'workflowLimits.maxTasksPerWorkflow' });
    await expect(planes.open({ workflowLimits: { advanceLeaseSeconds: 1, cpuTimeLimitMs: 1000 } })).rejects.toMatchObject({
      code: 'options_invalid',
      field: 'workflowLimits.advanceLeaseSeconds',
    });
  });

  it('hands a released task to the next worker and re-runs an abandoned advance', async () => {
    const plane = await planes.open({ workflowLimits: { advanceLeaseSeconds: 2, cpuTimeLimitMs: 500 } });
    const { client } = plane;
    const started = await client.workflows.start({ agentId: 'a', title: 'Release', script: `return (await ${ask('t')}).text;` });
    // A worker claimed the advance and died before storing anything.
    await plane.driver.query(`UPDATE ${plane.schema}.workflow SET advance_token = gen_random_uuid(), advance_claimed_at = now(), advance_attempts = 1 WHERE id = $1`, [started.id]);
    expect(await client.advances.runNext({ workerId: 'w' })).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 2300));
    expect(await client.advances.runNext({ workerId: 'w' })).toMatchObject({ workflowId: started.id, status: 'running', newTasks: 1 });
    const task = (await client.tasks.claim({ workerId: 'w1' }))!;
    expect(await client.tasks.release({ taskId: task.id, leaseToken: task.leaseToken })).toMatchObject({ status: 'queued', workerId: null });
    const again = (await client.tasks.claim({ workerId: 'w2' }))!;
    expect(again).toMatchObject({ id: task.id, workerId: 'w2' });
    await client.tasks.submit({ taskId: again.id, leaseToken: again.leaseToken, result: { text: 'ok' } });
    await advanceAll(plane);
    expect(await client.workflows.get({ agentId: 'a', workflowId: started.id })).toMatchObject({ status: 'succeeded', result: 'ok', replays: 2 });
  });
});
