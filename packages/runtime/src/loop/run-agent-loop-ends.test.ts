import { reply } from '@core/testkit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import { eventLog, gatewayFor, historyProblem, outputFor, textTool, withServer } from '../__fixtures__/loop-harness.js';
import { runAgentLoop } from './run-agent-loop.js';

describe('runAgentLoop over the openai SDK and the testkit server', () => {
  it('ends the turn after recording every output when a result has terminateTurn', async () => {
    const done = defineWorkerTool({
      name: 'submit',
      description: 'Submits the answer.',
      schema: z.object({}),
      executionMode: 'parallel',
      describeActivity: () => 'Submitting',
      execute: () => ({ content: 'submitted', terminateTurn: true, presentation: [{ kind: 'link', url: 'https://example.com' }] }),
    });
    const echo = textTool('echo', (text) => text);
    await withServer(
      [
        reply.functionCalls([
          { name: 'submit', arguments: {}, callId: 'c1' },
          { name: 'echo', arguments: { text: 'x' }, callId: 'c2' },
        ]),
        reply.text('never'),
      ],
      async (server) => {
        const log = eventLog();
        const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [done, echo], input: 'go', onEvent: log.onEvent });
        expect(result.reason).toBe('terminated');
        expect(server.requests).toHaveLength(1);
        expect(result.items.filter((item) => item.type === 'function_call_output')).toHaveLength(2);
        expect(log.of('presentation')).toEqual([
          { type: 'presentation', step: 1, callId: 'c1', toolName: 'submit', event: { kind: 'link', url: 'https://example.com' } },
        ]);
        expect(historyProblem(result.items)).toBeUndefined();
      },
    );
  });

  it('stops after maxSteps model calls, with the last calls run and recorded', async () => {
    const echo = textTool('echo', (text) => text);
    const again = reply.functionCalls([{ name: 'echo', arguments: { text: 'again' } }]);
    await withServer([again, again, again, again], async (server) => {
      const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [echo], input: 'loop', maxSteps: 3 });
      expect(result.reason).toBe('max_steps');
      expect(result.steps).toBe(3);
      expect(server.requests).toHaveLength(3);
      expect(result.toolCalls).toBe(3);
      expect(historyProblem(result.items)).toBeUndefined();
    });
  });

  it('does not run the calls of an incomplete response and tells the model instead', async () => {
    let runs = 0;
    const echo = textTool('echo', (text) => {
      runs += 1;
      return text;
    });
    await withServer(
      [reply.incomplete(reply.functionCalls([{ name: 'echo', arguments: '{"text": "cut of', callId: 'c1' }])), reply.text('ok, stopping')],
      async (server) => {
        const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [echo], input: 'go' });
        expect(runs).toBe(0);
        expect(result.reason).toBe('completed');
        expect(outputFor(server.requests[1]?.body, 'c1')).toMatch(/^Error: not run: your previous response was cut off \(max_output_tokens\)/);
        expect(historyProblem(result.items)).toBeUndefined();
      },
    );
  });

  it('ends incomplete when a cut-off response has no calls', async () => {
    await withServer([reply.incomplete(reply.text('The answer is'))], async (server) => {
      const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [], input: 'go' });
      expect(result.reason).toBe('incomplete');
      expect(result.text).toBe('The answer is');
    });
  });

  it('answers a client tool_search with the matching deferred tool, which the model then calls', async () => {
    const weather = defineWorkerTool({
      name: 'get_forecast',
      namespace: 'weather',
      namespaceDescription: 'Weather forecasts for cities.',
      description: 'Gets the weather forecast for a city.',
      schema: z.object({ city: z.string() }),
      deferLoading: true,
      describeActivity: (params) => `Forecast for ${params.city}`,
      execute: (params) => ({ content: `Sunny in ${params.city}` }),
    });
    const invoices = defineWorkerTool({
      name: 'list_invoices',
      description: 'Lists unpaid invoices.',
      schema: z.object({}),
      deferLoading: true,
      describeActivity: () => 'Listing invoices',
      execute: () => ({ content: 'none' }),
    });
    const echo = textTool('echo', (text) => text);
    await withServer(
      [
        reply.toolSearchCall({ arguments: { query: 'weather forecast' }, callId: 'ts1' }),
        reply.functionCalls([{ name: 'get_forecast', namespace: 'weather', arguments: { city: 'Lyon' }, callId: 'c1' }]),
        reply.text('It is sunny.'),
      ],
      async (server) => {
        const log = eventLog();
        const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [echo, weather, invoices], input: 'weather in Lyon?', onEvent: log.onEvent });
        expect(result.reason).toBe('completed');
        const tools = server.requests[0]?.body.tools as Array<Record<string, unknown>>;
        expect(tools.map((tool) => tool.type)).toEqual(['function', 'namespace', 'function', 'tool_search']);
        const searchOutput = (server.requests[1]?.body.input as Array<Record<string, unknown>>).find((item) => item.type === 'tool_search_output');
        expect(searchOutput).toMatchObject({
          call_id: 'ts1',
          execution: 'client',
          tools: [{ type: 'namespace', name: 'weather', description: 'Weather forecasts for cities.', tools: [{ type: 'function', name: 'get_forecast' }] }],
        });
        expect(log.of('tool_search.completed')[0]).toMatchObject({ callId: 'ts1', query: 'weather forecast', toolNames: ['weather.get_forecast'] });
        expect(outputFor(server.requests[2]?.body, 'c1')).toBe('Sunny in Lyon');
        expect(log.of('activity.started')[0]).toMatchObject({ toolName: 'get_forecast', namespace: 'weather', label: 'Forecast for Lyon' });
      },
    );
  });

  it('echoes reasoning items (with encrypted content) back in stateless mode', async () => {
    const echo = textTool('echo', (text) => text);
    await withServer(
      [reply.functionCalls([{ name: 'echo', arguments: { text: 'x' }, callId: 'c1' }], { reasoning: 'I should echo.' }), reply.text('done')],
      async (server) => {
        const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [echo], input: 'go' });
        expect(result.reason).toBe('completed');
        expect(server.requests[0]?.body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] });
        const second = server.requests[1]?.body.input as Array<Record<string, unknown>>;
        expect(second.map((item) => item.type ?? item.role)).toEqual(['message', 'reasoning', 'function_call', 'function_call_output']);
        expect(second[1]).toMatchObject({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'I should echo.' }] });
        expect(second[1]?.encrypted_content).toEqual(expect.stringMatching(/^testkit-encrypted-/));
      },
    );
  });

  it('sends only the new items with previous_response_id in chained mode', async () => {
    const echo = textTool('echo', (text) => text);
    await withServer([reply.functionCalls([{ name: 'echo', arguments: { text: 'x' }, callId: 'c1' }]), reply.text('done')], async (server) => {
      const result = await runAgentLoop({ gateway: gatewayFor(server, { previousResponseId: true }), tools: [echo], input: 'go' });
      expect(result.reason).toBe('completed');
      const [first, second] = server.requests;
      expect(first?.body.store).toBe(true);
      expect(first?.body.previous_response_id).toBeUndefined();
      expect(first?.body.include).toBeUndefined();
      expect(second?.body.input).toEqual([{ type: 'function_call_output', call_id: 'c1', output: 'x' }]);
      expect(typeof second?.body.previous_response_id).toBe('string');
      expect(result.responseId).toMatch(/^resp_/);
      // The result still holds the whole conversation.
      expect(result.items.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_output', 'message']);
    });
  });

  it('lists the tool outputs no request carried yet, so a chained conversation can continue', async () => {
    const finish = defineWorkerTool({
      name: 'finish',
      description: 'Finishes.',
      schema: z.object({}),
      describeActivity: () => 'Finishing',
      execute: () => ({ content: 'finished', terminateTurn: true }),
    });
    await withServer([reply.functionCalls([{ name: 'finish', arguments: {}, callId: 'c1' }]), reply.text('continuing')], async (server) => {
      const gateway = gatewayFor(server, { previousResponseId: true });
      const first = await runAgentLoop({ gateway, tools: [finish], input: 'go' });
      expect(first.reason).toBe('terminated');
      expect(first.pendingItems).toEqual([{ type: 'function_call_output', call_id: 'c1', output: 'finished' }]);
      const second = await runAgentLoop({
        gateway,
        tools: [finish],
        previousResponseId: first.responseId as string,
        input: [...first.pendingItems, { type: 'message', role: 'user', content: 'and now?' }],
      });
      expect(second.reason).toBe('completed');
      expect(second.pendingItems).toEqual([]);
      expect(server.requests[1]?.body.previous_response_id).toBe(first.responseId);
      expect((server.requests[1]?.body.input as unknown[]).length).toBe(2);
    });
  });

  it('gives details to the activity.completed event and never sends them to the model', async () => {
    const lookup = defineWorkerTool({
      name: 'lookup',
      description: 'Looks something up.',
      schema: z.object({}),
      describeActivity: () => 'Looking up',
      execute: () => ({ content: 'found it', details: { secret: 'internal-row-4711' } }),
    });
    await withServer([reply.functionCalls([{ name: 'lookup', arguments: {}, callId: 'c1' }]), reply.text('ok')], async (server) => {
      const log = eventLog();
      const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [lookup], input: 'go', onEvent: log.onEvent });
      expect(result.reason).toBe('completed');
      expect(log.of('activity.completed')[0]?.details).toEqual({ secret: 'internal-row-4711' });
      expect(outputFor(server.requests[1]?.body, 'c1')).toBe('found it');
      for (const request of server.requests) expect(request.rawBody).not.toContain('internal-row-4711');
      expect(JSON.stringify(result.items)).not.toContain('internal-row-4711');
    });
  });

  it('sends text and image content parts of a result as the function_call_output', async () => {
    const screenshot = defineWorkerTool({
      name: 'screenshot',
      description: 'Takes a screenshot.',
      schema: z.object({}),
      describeActivity: () => 'Taking a screenshot',
      execute: () => ({
        content: [
          { type: 'input_text' as const, text: 'The screen:' },
          { type: 'input_image' as const, image_url: 'data:image/png;base64,iVBORw0KGgo=' },
        ],
      }),
    });
    await withServer([reply.functionCalls([{ name: 'screenshot', arguments: {}, callId: 'c1' }]), reply.text('I see it.')], async (server) => {
      const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [screenshot], input: 'look' });
      expect(result.reason).toBe('completed');
      expect(outputFor(server.requests[1]?.body, 'c1')).toEqual([
        { type: 'input_text', text: 'The screen:' },
        { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
      ]);
    });
  });

  it('reports a failed gateway as reason error without rejecting', async () => {
    await withServer(
      [reply.httpError(401, { message: 'Incorrect API key provided: test-key.', type: 'invalid_request_error', code: 'invalid_api_key' })],
      async (server) => {
        const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [], input: 'go' });
        expect(result.reason).toBe('error');
        expect(result.error).toMatch(/rejected the API key \(HTTP 401: Incorrect API key provided/);
      },
    );
  });

  it('reports a tool set that cannot be sent as reason error', async () => {
    const one = textTool('same', (text) => text);
    const two = textTool('same', (text) => text);
    await withServer([], async (server) => {
      const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [one, two], input: 'go' });
      expect(result.reason).toBe('error');
      expect(result.error).toMatch(/Duplicate tools/);
      expect(server.requests).toHaveLength(0);
    });
  });

  it('resolves with reason error when a custom gateway rejects with a value that has no string form', async () => {
    const gateway = {
      usesPreviousResponseId: false,
      createResponse: () => Promise.reject(Object.assign(Object.create(null) as object, { toString: undefined })),
    };
    const result = await runAgentLoop({ gateway, tools: [], input: 'go' });
    expect(result.reason).toBe('error');
    expect(result.error).toBe('{}');
  });

  it('ignores an onEvent observer that throws', async () => {
    await withServer([reply.text('hello')], async (server) => {
      const result = await runAgentLoop({
        gateway: gatewayFor(server),
        tools: [],
        input: 'go',
        onEvent: () => {
          throw new Error('observer bug');
        },
      });
      expect(result.reason).toBe('completed');
    });
  });
});
