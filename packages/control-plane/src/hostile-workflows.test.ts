import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createAdvanceApi } from './advance-api.js';
import type { ControlPlane } from './create-control-plane.js';
import type { SandboxPool } from './sandbox-pool.js';
import { controlPlanes } from './testing.js';
import { DEFAULT_WORKFLOW_LIMITS } from '@core/control-plane-client';

const HANG = "const s = 'a'.repeat(8e6); return s.indexOf('a'.repeat(4e6) + 'b');";

async function advanceAll(plane: ControlPlane): Promise<number> {
  let count = 0;
  while ((await plane.client.advances.runNext({ workerId: 'w' })) !== null) count += 1;
  return count;
}

describe.each(['postgres', 'pglite'] as const)('hostile workflow scripts on %s', (kind) => {
  const planes = controlPlanes(kind);
  afterEach(() => planes.cleanup());
  afterAll(() => planes.close());

  it('fails a script stuck in a native call at its CPU-time limit, while workflows.list keeps answering', async () => {
    // A long advance lease puts the wall-clock backstop (half of it) far off: on a loaded test machine the CPU cut,
    // not the backstop, ends the run.
    const plane = await planes.open({ workflowLimits: { advanceLeaseSeconds: 60 } });
    const { client } = plane;
    const started = await client.workflows.start({ agentId: 'a', title: 'Hang', script: HANG });
    let finished = false;
    const advance = client.advances.runNext({ workerId: 'w' }).finally(() => {
      finished = true;
    });
    const latencies: number[] = [];
    while (!finished) {
      const before = performance.now();
      await client.workflows.list({ agentId: 'a' });
      latencies.push(performance.now() - before);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const report = await advance;
    latencies.sort((left, right) => left - right);
    console.log(
      `${kind}: the hostile advance took ${Math.round(report!.durationMs)} ms; ${latencies.length} workflows.list calls answered meanwhile (median ${latencies[latencies.length >> 1]?.toFixed(1)} ms, worst ${latencies.at(-1)?.toFixed(1)} ms)`,
    );
    expect(latencies.length).toBeGreaterThan(1);
    expect(report).toMatchObject({ workflowId: started.id, status: 'failed' });
    expect(await client.workflows.get({ agentId: 'a', workflowId: started.id })).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/CPU-time limit of 1000 ms in one run .*its thread was stopped/),
    });
    expect(await client.advances.runNext({ workerId: 'w' })).toBeNull();
  });

  it('stores at most 8,000 characters of a huge error, so listing and the finish notice stay small', async () => {
    const plane = await planes.open();
    const { client } = plane;
    const started = await client.workflows.start({ agentId: 'a', title: 'Huge', script: "throw new Error('E'.repeat(8e6));" });
    await advanceAll(plane);
    const [listed] = await client.workflows.list({ agentId: 'a' });
    expect(listed).toMatchObject({ id: started.id, status: 'failed', error: expect.stringMatching(/^E+ \[\.\.\. \d+ more characters cut\]$/) });
    expect(listed!.error!.length).toBeLessThanOrEqual(8000);
  });

  it('checks a submitted result against a catastrophic pattern at once, in linear time', async () => {
    const plane = await planes.open();
    const { client } = plane;
    const schema = { type: 'object', additionalProperties: false, required: ['s'], properties: { s: { type: 'string', pattern: '^(a+)+$' } } };
    const started = await client.workflows.start({ agentId: 'a', title: 'ReDoS', script: `return (await task({ title: 't', prompt: 'p', result: ${JSON.stringify(schema)} })).s.length;` });
    await advanceAll(plane);
    const task = (await client.tasks.claim({ workerId: 'w' }))!;
    // Backtracking needs hours for this string; RE2 answers at once.
    expect(await client.tasks.submit({ taskId: task.id, leaseToken: task.leaseToken, result: { s: `${'a'.repeat(50_000)}!` } })).toEqual({
      accepted: false,
      errors: [{ path: '$.s', message: 'must match pattern "^(a+)+$"' }],
    });
    expect(await client.tasks.submit({ taskId: task.id, leaseToken: task.leaseToken, result: { s: 'a'.repeat(50_000) } })).toMatchObject({ accepted: true });
    await advanceAll(plane);
    expect(await client.workflows.get({ agentId: 'a', workflowId: started.id })).toMatchObject({ status: 'succeeded', result: 50_000 });
  });

  it('refuses a task() whose result pattern cannot be checked in linear time, naming its path', async () => {
    const plane = await planes.open();
    const { client } = plane;
    const schema = { type: 'object', additionalProperties: false, required: ['s'], properties: { s: { type: 'string', pattern: '^(a)\\1$' } } };
    // A first task's schema is checked at start (the script's first run): refused with its path, nothing stored.
    await expect(client.workflows.start({ agentId: 'a', title: 'Backref', script: `await task({ title: 't', prompt: 'p', result: ${JSON.stringify(schema)} });` })).rejects.toMatchObject({
      code: 'result_schema_invalid',
      message: expect.stringMatching(/at \$\.properties\.s\.pattern: the pattern .* is refused: a backreference cannot be checked in linear time/),
    });
    expect(await client.workflows.list({ agentId: 'a' })).toEqual([]);
  });

  it('tries an advance the machine was too busy to finish again, and fails the workflow on the last attempt', async () => {
    const plane = await planes.open();
    const started = await plane.client.workflows.start({ agentId: 'a', title: 'Busy', script: 'return 1' });
    const busy: SandboxPool = {
      run: async () => ({ kind: 'busy', error: 'The run was stopped (busy).' }),
      check: async () => undefined,
      validate: async () => [],
      close: async () => {},
      threadCount: 0,
    };
    const advances = createAdvanceApi({ driver: plane.driver, schema: plane.schema, limits: { ...DEFAULT_WORKFLOW_LIMITS, maxAdvanceAttempts: 3 }, sandbox: busy });
    const reports = [];
    for (let attempt = 0; attempt < 3; attempt++) reports.push(await advances.runNext({ workerId: 'w' }));
    expect(reports.map((report) => report?.status)).toEqual(['running', 'running', 'failed']);
    expect(await advances.runNext({ workerId: 'w' })).toBeNull();
    expect(await plane.client.workflows.get({ agentId: 'a', workflowId: started.id })).toMatchObject({
      status: 'failed',
      error: 'The run was stopped (busy). It was tried 3 times; the workflow is not advanced again.',
    });
  });
});

describe('sandboxThreads', () => {
  const planes = controlPlanes('pglite');
  afterAll(() => planes.close());

  it('must be a positive whole number', async () => {
    for (const sandboxThreads of [0, 1.5, -1]) {
      await expect(planes.open({ sandboxThreads })).rejects.toMatchObject({ code: 'options_invalid', field: 'sandboxThreads' });
    }
  });
});
