import type { ControlPlaneClient, WorkflowDetails } from '@core/control-plane-client';
import { controlPlanes } from '@core/control-plane/testing';
import { createOpenAIResponsesGateway, runAgentLoop, type AgentEvent } from '@core/runtime';
import { functionCallOutputs, reply, startTestModelServer } from '@core/testkit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createWorkflowTools } from './create-workflow-tools.js';

const signal = new AbortController().signal;
const call = (name: string) => ({ signal, callId: 'c1', toolName: name });

const FACTS = { type: 'object', additionalProperties: false, required: ['facts'], properties: { facts: { type: 'array', items: { type: 'string' } } } };
const RESEARCH_SCRIPT = [
  `const notes = await Promise.all(input.topics.map((topic) => task({ title: 'Research ' + topic, prompt: 'Facts about ' + topic, result: ${JSON.stringify(FACTS)} })));`,
  'log(`collected ${notes.length} notes`);',
  'return { facts: notes.flatMap((note) => note.facts) };',
].join('\n');

/** Plays the worker: runs due advances and answers every queued task with one fact, until nothing is left to do. */
async function driveWorkflows(client: ControlPlaneClient): Promise<void> {
  for (;;) {
    let progressed = false;
    while ((await client.advances.runNext({ workerId: 'test-worker' })) !== null) progressed = true;
    for (let task = await client.tasks.claim({ workerId: 'test-worker' }); task !== null; task = await client.tasks.claim({ workerId: 'test-worker' })) {
      progressed = true;
      const outcome = await client.tasks.submit({ taskId: task.id, leaseToken: task.leaseToken, result: { facts: [`a fact from "${task.title}"`] } });
      expect(outcome.accepted).toBe(true);
    }
    if (!progressed) return;
  }
}

describe.each(['postgres', 'pglite'] as const)('createWorkflowTools on %s', (kind) => {
  const planes = controlPlanes(kind);
  afterEach(() => planes.cleanup());
  afterAll(() => planes.close());

  it('gives the four tools with their read-only, destructive and execution-mode flags', async () => {
    const { client } = await planes.open();
    const tools = createWorkflowTools({ client, agentId: 'a' });
    expect(tools.map((tool) => [tool.name, tool.isReadOnly, tool.isDestructive, tool.executionMode])).toEqual([
      ['workflow', false, false, 'sequential'],
      ['show_workflow', true, false, 'parallel'],
      ['list_workflows', true, false, 'parallel'],
      ['cancel_workflow', false, true, 'sequential'],
    ]);
    // The description teaches the script API.
    for (const word of ['task({ title, prompt, result })', 'additionalProperties: false', 'Promise.all', 'log(', 'return']) {
      expect(tools[0]!.description).toContain(word);
    }
  });

  it('a model starts two workflows, polls one to its result with show_workflow, lists them and cancels the other', async () => {
    const { client } = await planes.open();
    const ids: string[] = [];
    const model = await startTestModelServer({
      script: [
        reply.functionCalls([
          { name: 'workflow', arguments: { title: 'Tide pools', script: RESEARCH_SCRIPT, input: { topics: ['anemones', 'crabs'] } } },
          { name: 'workflow', arguments: { title: 'Newsletter', script: RESEARCH_SCRIPT, input: { topics: ['tides'] }, notifyOnFinish: true } },
        ]),
        (request) => {
          for (const output of functionCallOutputs(request)) ids.push(/id: (\S+)/.exec(String(output.output))![1]!);
          return reply.functionCalls([{ name: 'show_workflow', arguments: { workflowId: ids[0] } }]);
        },
        // Between the polls a worker runs the first workflow to its end.
        async () => {
          await driveOnly(client, ids[0]!);
          return reply.functionCalls([{ name: 'show_workflow', arguments: { workflowId: ids[0] } }]);
        },
        reply.functionCalls([{ name: 'list_workflows', arguments: {} }]),
        () => reply.functionCalls([{ name: 'cancel_workflow', arguments: { workflowId: ids[1] } }]),
        reply.text('The tide pool research is done; I cancelled the newsletter.'),
      ],
    });
    const events: AgentEvent[] = [];
    try {
      const result = await runAgentLoop({
        gateway: createOpenAIResponsesGateway({ baseURL: model.baseURL, apiKey: 'test', model: 'test-model' }),
        tools: createWorkflowTools({ client, agentId: 'agent-7' }),
        input: 'Research anemones and crabs in a workflow, and start the newsletter one too; then cancel the newsletter.',
        onEvent: (event) => events.push(event),
      });
      expect(result.reason).toBe('completed');
      expect(result.toolCalls).toBe(6);
      const outputs = functionCallOutputs(model.requests.at(-1)!).map((item) => String(item.output));
      expect(outputs[0]).toContain('Workflow started');
      expect(outputs[1]).toContain('you get a turn with the outcome');
      expect(outputs[2]).toMatch(/status: running[\s\S]*Tasks: none yet\./);
      expect(outputs[3]).toMatch(/status: succeeded/);
      expect(outputs[3]).toContain('result: {"facts":["a fact from \\"Research anemones\\"","a fact from \\"Research crabs\\""]}');
      expect(outputs[3]).toMatch(/1\. Research anemones \[succeeded\] started \S+, took \d+\.\d s\n {5}result: \{"facts":/);
      expect(outputs[3]).toMatch(/2\. Research crabs \[succeeded\]/);
      expect(outputs[3]).toMatch(/Log:\n {2}\S+ collected 2 notes/);
      expect(outputs[4]).toMatch(/^2 workflow\(s\):\n- id: \S+\n {2}title: Newsletter\n {2}status: running[\s\S]*title: Tide pools\n {2}status: succeeded/);
      expect(outputs[5]).toMatch(/^Workflow cancelled:[\s\S]*title: Newsletter\n {2}status: cancelled/);
      const labels = events.filter((event) => event.type === 'activity.completed').map((event) => event.label);
      expect(labels).toEqual([
        'Started workflow "Tide pools"',
        'Started workflow "Newsletter"',
        'Workflow "Tide pools" is running',
        'Workflow "Tide pools" is succeeded',
        'Listed 2 workflow(s)',
        'Cancelled "Newsletter"',
      ]);

      const stored = await client.workflows.list({ agentId: 'agent-7' });
      expect(stored.map((workflow) => [workflow.title, workflow.status, workflow.taskCount])).toEqual([
        ['Newsletter', 'cancelled', 1],
        ['Tide pools', 'succeeded', 2],
      ]);
      // Nothing of the cancelled workflow runs again.
      await driveWorkflows(client);
      const cancelled = await client.workflows.get({ agentId: 'agent-7', workflowId: ids[1]! });
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.tasks.map((task) => task.status)).toEqual(['cancelled']);
    } finally {
      await model.close();
    }
  });

  it('a script that does not compile, and unknown or other agents\' ids, come back as error outputs', async () => {
    const { client } = await planes.open();
    const [start, show, list, cancel] = createWorkflowTools({ client, agentId: 'a' });
    const broken = await start!.execute({ title: 'Broken', script: 'const x = ;' }, call('workflow'));
    expect(broken).toMatchObject({ isError: true, details: { code: 'script_invalid' } });
    expect(broken.content).toMatch(/^Could not start the workflow: /);
    expect((await list!.execute({}, call('list_workflows'))).content).toBe('No workflows.');

    const started = await start!.execute({ title: 'Fine', script: 'return input;', input: { n: 1 } }, call('workflow'));
    const workflowId = (started.details as { workflow: { id: string } }).workflow.id;
    const others = createWorkflowTools({ client, agentId: 'b' });
    expect(await others[1]!.execute({ workflowId }, call('show_workflow'))).toMatchObject({ isError: true, details: { code: 'workflow_not_found' } });
    expect(await others[3]!.execute({ workflowId }, call('cancel_workflow'))).toMatchObject({ isError: true, details: { code: 'workflow_not_found' } });

    await driveWorkflows(client);
    const done = await show!.execute({ workflowId }, call('show_workflow'));
    expect(done.content).toContain('status: succeeded');
    expect(done.content).toContain('result: {"n":1}');
    expect((done.details as { workflow: WorkflowDetails }).workflow.replays).toBe(1);
    const late = await cancel!.execute({ workflowId }, call('cancel_workflow'));
    expect(late.content).toMatch(/^The workflow already finished \(succeeded\); nothing changed/);
  });
});

/** Runs one workflow's advances and tasks to the end; other workflows' tasks are claimed but handed back unfinished. */
async function driveOnly(client: ControlPlaneClient, workflowId: string): Promise<void> {
  for (let round = 0; round < 20; round += 1) {
    while ((await client.advances.runNext({ workerId: 'test-worker' })) !== null);
    const workflow = await client.workflows.get({ agentId: 'agent-7', workflowId });
    if (workflow.status !== 'running') return;
    const held = [];
    for (let task = await client.tasks.claim({ workerId: 'test-worker' }); task !== null; task = await client.tasks.claim({ workerId: 'test-worker' })) {
      if (task.workflowId !== workflowId) held.push(task);
      else await client.tasks.submit({ taskId: task.id, leaseToken: task.leaseToken, result: { facts: [`a fact from "${task.title}"`] } });
    }
    for (const task of held) await client.tasks.release({ taskId: task.id, leaseToken: task.leaseToken });
  }
  throw new Error(`workflow ${workflowId} did not finish`);
}
