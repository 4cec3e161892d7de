import type { ControlPlaneClient } from '@core/control-plane-client';
import { controlPlanes } from '@core/control-plane/testing';
import { createOpenAIResponsesGateway, type AgentEvent } from '@core/runtime';
import { reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../__fixtures__/until.js';
import { runClaimedTask, type WorkerTaskEvent } from './run-task.js';

const FACTS = { type: 'object', additionalProperties: false, required: ['facts'], properties: { facts: { type: 'array', items: { type: 'string' } } } };

describe.each(['postgres', 'pglite'] as const)('runClaimedTask on %s', (kind) => {
  const planes = controlPlanes(kind);
  let model: TestModelServer | undefined;
  beforeAll(() => planes.open(), 120_000);
  afterEach(async () => {
    await model?.close();
    model = undefined;
    await planes.cleanup();
  });
  afterAll(() => planes.close());

  it('a task settled by its own submit_result while its lease watcher beats: the heartbeat answers finished by this lease, a clean stop (no abort, not lost)', async () => {
    const plane = await planes.open();
    const workflow = await plane.client.workflows.start({ agentId: 'agent-r', title: 'Race', script: `return await task({ title: 'Facts', prompt: 'Facts.', result: ${JSON.stringify(FACTS)} });` });
    await plane.client.advances.runNext({ workerId: 'w' });
    const task = (await plane.client.tasks.claim({ workerId: 'w' }))!;
    model = await startTestModelServer({ script: [reply.functionCalls([{ name: 'submit_result', arguments: { facts: ['a', 'b'] } }])] });

    // The control plane's answer to the submission reaches the tool only after a heartbeat has said the task is no
    // longer running (its own success): the order a busy machine, or an HTTP control plane, can produce.
    let heardFinish = false;
    const beats: Array<{ keepRunning: boolean; finishedByThisLease?: boolean | undefined }> = [];
    const client: ControlPlaneClient = {
      ...plane.client,
      tasks: {
        ...plane.client.tasks,
        async heartbeat(input, options) {
          const beat = await plane.client.tasks.heartbeat(input, options);
          beats.push(beat);
          if (!beat.keepRunning) heardFinish = true;
          return beat;
        },
        async submit(input) {
          const outcome = await plane.client.tasks.submit(input);
          await until(() => (heardFinish ? true : undefined), 'a heartbeat to hear that the task finished', 10_000, 10);
          return outcome;
        },
      },
    };
    const events: WorkerTaskEvent[] = [];
    const turnEvents: AgentEvent[] = [];
    const ended = await runClaimedTask({
      client,
      task,
      gateway: createOpenAIResponsesGateway({ baseURL: model.baseURL, apiKey: 'test', model: 'test-model', maxRetries: 0 }),
      hardStop: new AbortController().signal,
      context: () => ({}),
      heartbeatIntervalMs: 20,
      emit: (event) => {
        if (event.type !== 'worker.error') events.push(event);
      },
      onTurnEvent: (_task, event) => turnEvents.push(event),
    });

    expect(heardFinish).toBe(true);
    // The watcher's last heartbeat heard that this lease finished the task, and it sent no more after it.
    expect(beats.at(-1)).toMatchObject({ keepRunning: false, finishedByThisLease: true });
    expect(beats.filter((beat) => !beat.keepRunning)).toHaveLength(1);
    expect(turnEvents.filter((event) => event.type === 'activity.completed').map((event) => event.status)).toEqual(['success']);
    expect(ended).toBe('task.succeeded');
    expect(events.map((event) => event.type)).toEqual(['task.succeeded']);
    expect(events[0]).toMatchObject({ task: { id: task.id, status: 'succeeded', result: { facts: ['a', 'b'] } } });
    // The heartbeat's news was that this very lease ended the claim: no abort at all, so the call and the turn end as
    // they should (its transcript shows the result accepted, not an aborted call).
    expect(turnEvents.find((event) => event.type === 'activity.completed')).toMatchObject({ toolName: 'submit_result', status: 'success' });
    expect(turnEvents.at(-1)).toMatchObject({ type: 'turn.completed', reason: 'terminated' });
    await plane.client.advances.runNext({ workerId: 'w' });
    expect(await plane.client.workflows.get({ agentId: 'agent-r', workflowId: workflow.id })).toMatchObject({ status: 'succeeded', result: { facts: ['a', 'b'] } });
  });

  it('a task taken over by another worker while its turn runs: the heartbeat of the old lease hears it lost, the turn aborts, task.lost', async () => {
    const plane = await planes.open();
    await plane.client.workflows.start({ agentId: 'agent-t', title: 'Taken', script: `return await task({ title: 'Facts', prompt: 'Facts.', result: ${JSON.stringify(FACTS)} });` });
    await plane.client.advances.runNext({ workerId: 'w' });
    const task = (await plane.client.tasks.claim({ workerId: 'w' }))!;
    model = await startTestModelServer({ script: [reply.functionCalls([{ name: 'submit_result', arguments: { facts: ['late'] } }])] });
    const beats: Array<{ keepRunning: boolean; finishedByThisLease?: boolean | undefined }> = [];
    const client: ControlPlaneClient = {
      ...plane.client,
      tasks: {
        ...plane.client.tasks,
        async heartbeat(input, options) {
          const beat = await plane.client.tasks.heartbeat(input, options);
          beats.push(beat);
          return beat;
        },
        async submit(input) {
          // Before the result arrives, another worker's claim replaces the lease (this one ran out), and the watcher hears it.
          await plane.driver.query(`UPDATE ${plane.schema}.task SET lease_token = gen_random_uuid(), worker_id = 'w2' WHERE id = $1`, [input.taskId]);
          await until(() => (beats.some((beat) => !beat.keepRunning) ? true : undefined), 'a heartbeat to hear the takeover', 10_000, 10);
          return plane.client.tasks.submit(input);
        },
      },
    };
    const events: WorkerTaskEvent[] = [];
    const ended = await runClaimedTask({
      client,
      task,
      gateway: createOpenAIResponsesGateway({ baseURL: model.baseURL, apiKey: 'test', model: 'test-model', maxRetries: 0 }),
      hardStop: new AbortController().signal,
      context: () => ({}),
      heartbeatIntervalMs: 20,
      emit: (event) => {
        if (event.type !== 'worker.error') events.push(event);
      },
    });
    expect(beats.find((beat) => !beat.keepRunning)).toEqual({ keepRunning: false, status: 'running' });
    expect(ended).toBe('task.lost');
    expect(events.map((event) => event.type)).toEqual(['task.lost']);
    expect((await plane.client.workflows.get({ agentId: 'agent-t', workflowId: task.workflowId })).tasks[0]).toMatchObject({ status: 'running', workerId: 'w2', result: null });
  });

  it('fails a task whose stored result schema submit_result cannot send with an error that says so, naming each path', async () => {
    const plane = await planes.open();
    await plane.client.workflows.start({ agentId: 'agent-s', title: 'Open', script: `return await task({ title: 'summarise', prompt: 'Sum up.', result: ${JSON.stringify(FACTS)} });` });
    await plane.client.advances.runNext({ workerId: 'w' });
    const claimed = (await plane.client.tasks.claim({ workerId: 'w' }))!;
    // A schema stored before the control plane checked it (or by an older one): not closed.
    const task = { ...claimed, resultSchema: { type: 'object', properties: { summary: { type: 'string' } } } };
    const events: Array<WorkerTaskEvent | { type: 'worker.error'; error: unknown }> = [];
    const ended = await runClaimedTask({
      client: plane.client,
      task,
      gateway: createOpenAIResponsesGateway({ baseURL: 'http://127.0.0.1:9', apiKey: 'test', model: 'test-model', maxRetries: 0 }),
      hardStop: new AbortController().signal,
      context: () => ({}),
      emit: (event) => events.push(event),
    });
    expect(ended).toBe('task.failed');
    const stored = (await plane.client.workflows.get({ agentId: 'agent-s', workflowId: task.workflowId })).tasks[0]!;
    expect(stored.status).toBe('failed');
    expect(stored.error).toMatch(
      /^Its result schema cannot be used by submit_result, so no result could be submitted \(at \$: .*"additionalProperties": false.*\); fix the schema in the workflow script's task\(\) call as each problem says\.$/,
    );
    expect(events).toEqual([expect.objectContaining({ type: 'task.failed', error: stored.error })]);
  });

  it('reports a task whose failure the control plane refuses as lease_lost as lost, not as an error', async () => {
    const plane = await planes.open();
    await plane.client.workflows.start({ agentId: 'agent-l', title: 'Lost', script: `return await task({ title: 'Facts', prompt: 'Facts.', result: ${JSON.stringify(FACTS)} });` });
    await plane.client.advances.runNext({ workerId: 'w' });
    const task = (await plane.client.tasks.claim({ workerId: 'w' }))!;
    // The turn cannot run (its context fails) and, before its failure is stored, another worker's claim replaces the lease.
    const client: ControlPlaneClient = {
      ...plane.client,
      tasks: {
        ...plane.client.tasks,
        async fail(input) {
          await plane.driver.query(`UPDATE ${plane.schema}.task SET lease_token = gen_random_uuid(), worker_id = 'w2' WHERE id = $1`, [input.taskId]);
          return plane.client.tasks.fail(input);
        },
      },
    };
    const events: Array<WorkerTaskEvent | { type: 'worker.error'; error: unknown }> = [];
    const ended = await runClaimedTask({
      client,
      task,
      gateway: createOpenAIResponsesGateway({ baseURL: 'http://127.0.0.1:9', apiKey: 'test', model: 'test-model', maxRetries: 0 }),
      hardStop: new AbortController().signal,
      context: () => {
        throw new Error('no home for this agent');
      },
      emit: (event) => events.push(event),
    });
    expect(ended).toBe('task.lost');
    expect(events.map((event) => event.type)).toEqual(['task.lost']);
    expect((await plane.client.workflows.get({ agentId: 'agent-l', workflowId: task.workflowId })).tasks[0]).toMatchObject({ status: 'running', workerId: 'w2' });
  });
});
