import type { ClaimedTask, JsonValue, WorkflowRecord } from '@core/control-plane-client';
import type { ControlPlane } from '@core/control-plane';
import { controlPlanes } from '@core/control-plane/testing';
import { createOpenAIResponsesGateway } from '@core/runtime';
import { createRequestValidator, officialOpenapiDocument, functionCallOutputs, lastUserText, reply, startTestModelServer, type ScriptStep, type TestModelServer } from '@core/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTaskTurnTools, runTaskTurn } from './task-turn.js';

const official = officialOpenapiDocument();
const requestValidator = official.present ? createRequestValidator(official.path) : undefined;
if (requestValidator === undefined) console.warn(`task-turn tests: the official OpenAPI check is ${official.skipNote}; the testkit's own request checks still run.`);

const FACTS = {
  type: 'object',
  additionalProperties: false,
  required: ['facts', 'note'],
  properties: { facts: { type: 'array', items: { type: 'string' } }, note: { type: ['string', 'null'] } },
};

describe.each(['postgres', 'pglite'] as const)('workflow task turns on %s', (kind) => {
  const planes = controlPlanes(kind);
  let model: TestModelServer | undefined;
  // The first open starts PGlite and migrates (tens of seconds on a busy machine): not part of any one test.
  beforeAll(() => planes.open(), 120_000);
  afterEach(async () => {
    await model?.close();
    model = undefined;
    await planes.cleanup();
  });
  afterAll(() => planes.close());

  /** Starts a workflow, runs its first advance and claims the task it created. */
  async function startAndClaim(plane: ControlPlane, title: string, script: string): Promise<{ workflow: WorkflowRecord; task: ClaimedTask }> {
    const workflow = await plane.client.workflows.start({ agentId: 'agent-t', title, script });
    await plane.client.advances.runNext({ workerId: 'w' });
    const task = await plane.client.tasks.claim({ workerId: 'w' });
    expect(task).toMatchObject({ workflowId: workflow.id, workflowTitle: title });
    return { workflow, task: task! };
  }

  async function modelWith(script: ScriptStep[], onExhausted?: ScriptStep): Promise<TestModelServer> {
    model = await startTestModelServer({ script, ...(requestValidator === undefined ? {} : { requestValidator }), ...(onExhausted === undefined ? {} : { onExhausted }) });
    return model;
  }

  const gateway = (server: TestModelServer) => createOpenAIResponsesGateway({ baseURL: server.baseURL, apiKey: 'test', model: 'test-model' });

  it('has exactly the fixed tools: web tools with a profile, recall and get_page with Brain, then submit_result; nothing of a text turn', async () => {
    const plane = await planes.open();
    const { task } = await startAndClaim(plane, 'Notes', `return await task({ title: 'Find facts', prompt: 'Facts.', result: ${JSON.stringify(FACTS)} });`);
    const signal = new AbortController().signal;
    const bare = buildTaskTurnTools({ task, controlPlane: plane.client, signal });
    expect(bare.tools.map((tool) => tool.name)).toEqual(['submit_result']);
    const withWeb = buildTaskTurnTools({ task, controlPlane: plane.client, signal, webProfile: { fetch: true } });
    expect(withWeb.tools.map((tool) => tool.name)).toEqual(['web_fetch', 'submit_result']);
    // Brain on: only its read-only tools, between the web tools and submit_result.
    const withBrain = buildTaskTurnTools({ task, controlPlane: plane.client, signal, webProfile: { fetch: true }, brain: true });
    expect(withBrain.tools.map((tool) => [tool.name, tool.isReadOnly])).toEqual([
      ['web_fetch', true],
      ['recall', true],
      ['get_page', true],
      ['submit_result', false],
    ]);
    expect(withBrain.instructions).toContain('Tools to help you: web_fetch, recall, get_page.');
  });

  it('a wrong submission is an error output and the turn goes on; the right one is stored, the turn ends and the workflow finishes', async () => {
    const plane = await planes.open();
    const { workflow, task } = await startAndClaim(
      plane,
      'Tide pool notes',
      `const found = await task({ title: 'Find facts', prompt: 'Three facts about tide pools, please.', result: ${JSON.stringify(FACTS)} });\nlog('found ' + found.facts.length);\nreturn { count: found.facts.length, note: found.note };`,
    );
    const server = await modelWith([
      reply.functionCalls([{ name: 'start_background_job', arguments: { prompt: 'more work' } }]),
      reply.functionCalls([{ name: 'submit_result', arguments: { note: 'no facts yet' } }]),
      reply.functionCalls([{ name: 'submit_result', arguments: { facts: ['Anemones close at low tide.', 'Crabs molt.', 'Tides turn twice a day.'], note: null } }]),
    ]);
    const result = await runTaskTurn({ context: { task, controlPlane: plane.client, signal: new AbortController().signal, webProfile: { fetch: true } }, gateway: gateway(server) });

    expect(result.status).toBe('submitted');
    expect(result.outcome.reason).toBe('terminated');
    expect(server.requests).toHaveLength(3);
    const body = server.requests[0]!.body as { tools: Array<Record<string, unknown>>; instructions: string };
    expect(body.tools.map((tool) => tool.name)).toEqual(['web_fetch', 'submit_result']);
    const submit = body.tools[1]!;
    expect(submit).toMatchObject({ type: 'function', name: 'submit_result', strict: true });
    expect(submit.parameters).toStrictEqual(task.resultSchema);
    expect(submit.parameters).toStrictEqual(FACTS);
    for (const part of ['"Tide pool notes"', 'Your task: Find facts', 'Three facts about tide pools, please.', 'submit_result']) expect(body.instructions).toContain(part);

    const outputs = functionCallOutputs(server.requests[2]!).map((output) => String(output.output));
    expect(outputs[0]).toContain('unknown tool "start_background_job"');
    expect(outputs[1]).toContain('facts');
    expect(result.task).toMatchObject({ status: 'succeeded', result: { facts: ['Anemones close at low tide.', 'Crabs molt.', 'Tides turn twice a day.'], note: null } });

    expect(await plane.client.advances.runNext({ workerId: 'w' })).toMatchObject({ workflowId: workflow.id, status: 'succeeded' });
    const finished = await plane.client.workflows.get({ agentId: 'agent-t', workflowId: workflow.id });
    expect(finished).toMatchObject({ status: 'succeeded', result: { count: 3, note: null } });
    expect(finished.log.map((line) => line.text)).toEqual(['found 3']);
  });

  it("a model that never submits is reminded twice, then the task fails and the script's try/catch sees why", async () => {
    const plane = await planes.open();
    const { workflow, task } = await startAndClaim(
      plane,
      'Greeting',
      [
        `try {`,
        `  await task({ title: 'Greet', prompt: 'Say hello.', result: ${JSON.stringify(FACTS)} });`,
        `  return { caught: null };`,
        `} catch (error) {`,
        `  return { caught: String(error && error.message ? error.message : error) };`,
        `}`,
      ].join('\n'),
    );
    const server = await modelWith([], reply.text('Hello!'));
    const result = await runTaskTurn({ context: { task, controlPlane: plane.client, signal: new AbortController().signal }, gateway: gateway(server) });

    expect(result).toMatchObject({ status: 'failed', reminders: 2, steps: 3, task: { status: 'failed' } });
    expect(server.requests.map((request) => lastUserText(request))).toEqual([
      'Do the task "Greet" now, then submit its result with submit_result.',
      expect.stringContaining('(reminder 1 of 2)'),
      expect.stringContaining('(reminder 2 of 2)'),
    ]);
    expect(result.error).toBe("The task's sub-agent answered without submitting a result, even after 2 reminder(s). Its last answer: Hello!");

    await plane.client.advances.runNext({ workerId: 'w' });
    const finished = await plane.client.workflows.get({ agentId: 'agent-t', workflowId: workflow.id });
    expect(finished.status).toBe('succeeded');
    expect((finished.result as { caught: JsonValue }).caught).toContain('answered without submitting a result');
  });

  it('an aborted turn leaves the task to its caller (still running, nothing stored)', async () => {
    const plane = await planes.open();
    const { workflow, task } = await startAndClaim(plane, 'Aborted', `return await task({ title: 'Wait', prompt: 'Wait.', result: ${JSON.stringify(FACTS)} });`);
    const server = await modelWith([reply.slow(reply.text('thinking…'), { delayMs: 5_000 })]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await runTaskTurn({ context: { task, controlPlane: plane.client, signal: controller.signal }, gateway: gateway(server) });
    expect(result.status).toBe('aborted');
    expect((await plane.client.workflows.get({ agentId: 'agent-t', workflowId: workflow.id })).tasks[0]).toMatchObject({ status: 'running', result: null });
  });
});
