import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ClaimedTask } from '@core/control-plane-client';
import { controlPlanes } from '@core/control-plane/testing';
import { createOpenAIResponsesGateway, type AnyWorkerAgentTool } from '@core/runtime';
import { functionCallOutputs, reply, startTestModelServer } from '@core/testkit';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTaskTurnTools } from './task-turn.js';
import { buildTurnTools, runTextTurn } from './text-turn.js';

const BRAIN = ['recall', 'get_page', 'create_page', 'update_page', 'delete_page'];
const names = (tools: readonly AnyWorkerAgentTool[]) => tools.map((tool) => tool.name);

describe.each(['postgres', 'pglite'] as const)('Brain in turns on %s', (kind) => {
  const planes = controlPlanes(kind);
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'ankole-brain-turn-'));
  });
  afterEach(async () => {
    await planes.cleanup();
    await rm(home, { recursive: true, force: true });
  });
  afterAll(() => planes.close());

  it('a text turn gets the five Brain tools after the workflow tools only when Brain is enabled and a control plane is bound', async () => {
    const { client } = await planes.open();
    const signal = new AbortController().signal;
    const without = names((await buildTurnTools({ home, signal, controlPlane: client, allowJobs: true })).tools);
    expect(without.filter((name) => BRAIN.includes(name))).toEqual([]);
    expect(names((await buildTurnTools({ home, signal, brain: true })).tools).filter((name) => BRAIN.includes(name))).toEqual([]);
    const withBrain = names((await buildTurnTools({ home, signal, controlPlane: client, allowJobs: true, brain: true })).tools);
    expect(withBrain).toEqual([...without, ...BRAIN]);
  });

  it('a text turn saves a page and a later turn of the same agent recalls and reads it', async () => {
    const { client } = await planes.open();
    const model = await startTestModelServer({
      script: [
        reply.functionCalls([{ name: 'create_page', arguments: { title: 'Wi-Fi at the cabin', body: 'Network "Birch", password on the fridge door.' } }]),
        reply.text('Saved.'),
        reply.functionCalls([{ name: 'recall', arguments: { query: 'cabin wifi password' } }]),
        (request) => {
          const found = String(functionCallOutputs(request).at(-1)?.output);
          const id = /id ([0-9a-f-]{36})/.exec(found)?.[1];
          return reply.functionCalls([{ name: 'get_page', arguments: { page: id } }]);
        },
        reply.text('It is on the fridge door.'),
      ],
    });
    try {
      const gateway = createOpenAIResponsesGateway({ baseURL: model.baseURL, apiKey: 'test', model: 'test-model' });
      const context = { home, agent: 'family', signal: new AbortController().signal, controlPlane: client, brain: true };
      await runTextTurn({ context, gateway, input: 'Remember: the cabin Wi-Fi is "Birch", password on the fridge door.' });
      const second = await runTextTurn({ context, gateway, input: 'Where is the cabin Wi-Fi password?' });
      expect(second.outcome.reason).toBe('completed');
      const outputs = functionCallOutputs(model.requests.at(-1)!).map((item) => String(item.output));
      expect(outputs[0]).toContain('1. Wi-Fi at the cabin');
      expect(outputs[1]).toContain('Network "Birch", password on the fridge door.');
      expect((await client.brain.listPages({ agentId: 'family' })).total).toBe(1);
    } finally {
      await model.close();
    }
  });

  it('a workflow task turn gets exactly recall, get_page and submit_result with Brain, and submit_result alone without', async () => {
    const { client } = await planes.open();
    const task: ClaimedTask = {
      id: '00000000-0000-4000-8000-000000000001',
      workflowId: '00000000-0000-4000-8000-000000000002',
      agentId: 'a',
      sequence: 0,
      title: 'Look it up',
      prompt: 'Find the password.',
      resultSchema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false },
      status: 'running',
      result: null,
      error: null,
      attempts: 1,
      workerId: 'w',
      createdAt: new Date().toISOString(),
      startedAt: new Date().toISOString(),
      finishedAt: null,
      leaseToken: '00000000-0000-4000-8000-000000000003',
      workflowTitle: 'Household',
    };
    const signal = new AbortController().signal;
    const withBrain = buildTaskTurnTools({ task, controlPlane: client, signal, brain: true }).tools;
    expect(names(withBrain)).toEqual(['recall', 'get_page', 'submit_result']);
    expect(withBrain.slice(0, 2).every((tool) => tool.isReadOnly)).toBe(true);
    expect(names(buildTaskTurnTools({ task, controlPlane: client, signal }).tools)).toEqual(['submit_result']);
  });
});
