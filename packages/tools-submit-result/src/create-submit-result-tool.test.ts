import type { ClaimedTask } from '@core/control-plane-client';
import type { ControlPlane } from '@core/control-plane';
import { controlPlanes } from '@core/control-plane/testing';
import { collectToolSchemas, createOpenAIResponsesGateway, runAgentLoop } from '@core/runtime';
import { createRequestValidator, officialOpenapiDocument, functionCallOutputs, reply, startTestModelServer } from '@core/testkit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSubmitResultTool } from './create-submit-result-tool.js';

const official = officialOpenapiDocument();
const requestValidator = official.present ? createRequestValidator(official.path) : undefined;
if (requestValidator === undefined) console.warn(`submit_result tests: the official OpenAPI check is ${official.skipNote}; the testkit's own request checks still run.`);

const signal = new AbortController().signal;
const call = { signal, callId: 'c1', toolName: 'submit_result' };

const FACTS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['facts', 'source'],
  properties: {
    facts: { type: 'array', items: { type: 'string' } },
    source: { type: ['string', 'null'] },
  },
};

/** A workflow of one task, advanced once, and that task claimed by worker `w`. */
async function claimOneTask(plane: ControlPlane): Promise<ClaimedTask> {
  const { client } = plane;
  const workflow = await client.workflows.start({
    agentId: 'agent-1',
    title: 'Facts',
    script: `const found = await task({ title: 'Find facts', prompt: 'Three facts about tide pools.', result: ${JSON.stringify(FACTS_SCHEMA)} });\nreturn { count: found.facts.length };`,
  });
  expect(await client.advances.runNext({ workerId: 'w' })).toMatchObject({ workflowId: workflow.id, newTasks: 1 });
  const task = await client.tasks.claim({ workerId: 'w' });
  expect(task).not.toBeNull();
  return task!;
}

describe.each(['postgres', 'pglite'] as const)('createSubmitResultTool on %s', (kind) => {
  const planes = controlPlanes(kind);
  afterEach(() => planes.cleanup());
  afterAll(() => planes.close());

  it('sends the stored result schema unchanged with strict: true', async () => {
    const plane = await planes.open();
    const task = await claimOneTask(plane);
    const tool = createSubmitResultTool({ task, client: plane.client });
    expect(tool).toMatchObject({ name: 'submit_result', strict: true, jsonSchema: task.resultSchema, isReadOnly: false, isDestructive: false, executionMode: 'sequential' });
    const [sent] = collectToolSchemas([tool]);
    expect(sent).toMatchObject({ type: 'function', name: 'submit_result', strict: true });
    expect((sent as { parameters: unknown }).parameters).toStrictEqual(FACTS_SCHEMA);
  });

  it('a model submits a wrong value (error output, the turn goes on), then a right one (stored, the turn ends)', async () => {
    const plane = await planes.open();
    const task = await claimOneTask(plane);
    const model = await startTestModelServer({
      ...(requestValidator === undefined ? {} : { requestValidator }),
      script: [
        reply.functionCalls([{ name: 'submit_result', arguments: { source: null } }]),
        reply.functionCalls([{ name: 'submit_result', arguments: { facts: ['Anemones close at low tide.'], source: null } }]),
      ],
    });
    try {
      const result = await runAgentLoop({
        gateway: createOpenAIResponsesGateway({ baseURL: model.baseURL, apiKey: 'test', model: 'test-model' }),
        tools: [createSubmitResultTool({ task, client: plane.client })],
        input: 'Find three facts about tide pools.',
      });
      expect(result.reason).toBe('terminated');
      expect(model.requests.every((request) => request.body !== undefined)).toBe(true);
      // The second request carried the rejection of the first submission.
      const [rejected] = functionCallOutputs(model.requests[1]!);
      expect(String(rejected?.output)).toContain('facts');
      const stored = await plane.client.workflows.get({ agentId: 'agent-1', workflowId: task.workflowId });
      expect(stored.tasks[0]).toMatchObject({ status: 'succeeded', result: { facts: ['Anemones close at low tide.'], source: null } });
    } finally {
      await model.close();
    }
  });

  it('the control plane rejection names each failing path and stores nothing; the next correct value is stored', async () => {
    const plane = await planes.open();
    const task = await claimOneTask(plane);
    const tool = createSubmitResultTool({ task, client: plane.client });
    const rejected = await tool.execute({ facts: ['ok', 7], source: 3 }, call);
    expect(rejected).toMatchObject({ isError: true, details: { accepted: false } });
    expect(rejected.terminateTurn).toBeUndefined();
    expect(rejected.content).toContain('$.facts[1]');
    expect(rejected.content).toContain('$.source');
    expect((await plane.client.workflows.get({ agentId: 'agent-1', workflowId: task.workflowId })).tasks[0]).toMatchObject({ status: 'running', result: null });

    const accepted = await tool.execute({ facts: ['ok'], source: 'a book' }, call);
    expect(accepted).toMatchObject({ terminateTurn: true, details: { accepted: true, task: { status: 'succeeded', result: { facts: ['ok'], source: 'a book' } } } });
  });

  it('a value with text that cannot be stored (NUL, lone surrogate) comes back naming the path; the turn goes on and a fixed value is stored', async () => {
    const plane = await planes.open();
    const task = await claimOneTask(plane);
    const tool = createSubmitResultTool({ task, client: plane.client });
    for (const [value, path, what] of [
      [{ facts: ['ok', 'bin\u0000ary'], source: null }, '$.facts[1]', 'NUL character (U+0000)'],
      [{ facts: [], source: 'half \uD83D' }, '$.source', 'lone surrogate (U+D83D'],
    ] as const) {
      const refused = await tool.execute(value, call);
      expect(refused).toMatchObject({ isError: true, details: { accepted: false, errors: [{ path }] } });
      expect(refused.terminateTurn).toBeUndefined();
      expect(refused.details?.code).toBeUndefined();
      expect(refused.content).toContain(`- ${path}: the text contains a ${what}`);
      expect(refused.content).toContain('call submit_result again');
    }
    expect((await plane.client.workflows.get({ agentId: 'agent-1', workflowId: task.workflowId })).tasks[0]).toMatchObject({ status: 'running', result: null });
    const accepted = await tool.execute({ facts: ['binary'], source: null }, call);
    expect(accepted).toMatchObject({ terminateTurn: true, details: { accepted: true } });
    await plane.client.advances.runNext({ workerId: 'w' });
    expect(await plane.client.workflows.get({ agentId: 'agent-1', workflowId: task.workflowId })).toMatchObject({ status: 'succeeded', result: { count: 1 } });
  });

  it('refuses a second submission, and one from a worker that lost the lease, with clear error outputs', async () => {
    const plane = await planes.open();
    const task = await claimOneTask(plane);
    const stale = createSubmitResultTool({ task: { ...task, leaseToken: 'not-the-lease' }, client: plane.client });
    const lost = await stale.execute({ facts: ['stale'], source: null }, call);
    expect(lost).toMatchObject({ isError: true, terminateTurn: true, details: { accepted: false, code: 'lease_lost' } });
    expect(lost.content).toMatch(/^The result could not be submitted: /);

    const tool = createSubmitResultTool({ task, client: plane.client });
    expect(await tool.execute({ facts: ['first'], source: null }, call)).toMatchObject({ details: { accepted: true } });
    const again = await tool.execute({ facts: ['second'], source: null }, call);
    expect(again).toMatchObject({ isError: true, details: { code: 'already_submitted' } });
    // Another tool for the same task (a second turn of a confused worker) is refused by the control plane itself.
    const other = await createSubmitResultTool({ task, client: plane.client }).execute({ facts: ['third'], source: null }, call);
    expect(other).toMatchObject({ isError: true, details: { code: 'already_submitted' } });
    const stored = await plane.client.workflows.get({ agentId: 'agent-1', workflowId: task.workflowId });
    expect(stored.tasks[0]?.result).toEqual({ facts: ['first'], source: null });
  });
});
