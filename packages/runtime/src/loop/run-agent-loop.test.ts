import { reply } from '@core/testkit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import { eventLog, gate, gatewayFor, historyProblem, outputFor, textTool, withServer } from '../__fixtures__/loop-harness.js';
import { runAgentLoop } from './run-agent-loop.js';

describe('runAgentLoop over the openai SDK and the testkit server', () => {
  it('runs a tool, sends its output back and ends with the model text, streaming the deltas in order', async () => {
    const echo = textTool('echo', (text) => `echoed ${text}`);
    await withServer(
      [reply.functionCalls([{ name: 'echo', arguments: { text: 'hi' }, callId: 'c1' }]), reply.text('All done, thank you.')],
      async (server) => {
        const log = eventLog();
        const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [echo], input: 'say hi', instructions: 'Be brief.', onEvent: log.onEvent });
        expect(result.reason).toBe('completed');
        expect(result.steps).toBe(2);
        expect(result.text).toBe('All done, thank you.');
        expect(result.toolCalls).toBe(1);
        expect(outputFor(server.requests[1]?.body, 'c1')).toBe('echoed hi');
        expect(server.requests[0]?.body).toMatchObject({ stream: true, store: false, parallel_tool_calls: true, instructions: 'Be brief.' });
        expect(log.of('text.delta').map((event) => event.delta).join('')).toBe('All done, thank you.');
        expect(log.of('text.completed').map((event) => event.text)).toEqual(['All done, thank you.']);
        expect(log.events.at(-1)).toMatchObject({ type: 'turn.completed', reason: 'completed', steps: 2 });
        expect(historyProblem(result.items)).toBeUndefined();
      },
    );
  });

  it('emits the events of a turn in order', async () => {
    const echo = textTool('echo', (text) => text);
    await withServer([reply.functionCalls([{ name: 'echo', arguments: { text: 'a' }, callId: 'c1' }], { text: 'Let me check.' }), reply.text('Done.')], async (server) => {
      const log = eventLog();
      await runAgentLoop({ gateway: gatewayFor(server), tools: [echo], input: 'go', onEvent: log.onEvent });
      const types = log.events.map((event) => event.type).filter((type, index, all) => type !== 'text.delta' || all[index - 1] !== 'text.delta');
      expect(types).toEqual([
        'turn.started',
        'step.started',
        'text.delta',
        'usage',
        'message.completed',
        'text.completed',
        'activity.started',
        'activity.completed',
        'step.started',
        'text.delta',
        'usage',
        'message.completed',
        'text.completed',
        'turn.completed',
      ]);
      expect(log.of('activity.completed')[0]).toMatchObject({ step: 1, callId: 'c1', toolName: 'echo', label: 'echo a', status: 'success', repairs: [] });
    });
  });

  it('gives each call its arguments as sent when it starts and its output when it completes, failed calls too', async () => {
    const echo = textTool('echo', (text) => `echoed ${text}`);
    await withServer(
      [
        reply.functionCalls([
          { name: 'echo', arguments: { text: 'a' }, callId: 'c1' },
          { name: 'nope', arguments: { x: 1 }, callId: 'c2' },
        ]),
        reply.text('Done.'),
      ],
      async (server) => {
        const log = eventLog();
        await runAgentLoop({ gateway: gatewayFor(server), tools: [echo], input: 'go', onEvent: log.onEvent });
        const started = new Map(log.of('activity.started').map((event) => [event.callId, event]));
        const completed = new Map(log.of('activity.completed').map((event) => [event.callId, event]));
        expect(JSON.parse(started.get('c1')?.arguments ?? '')).toEqual({ text: 'a' });
        expect(JSON.parse(started.get('c2')?.arguments ?? '')).toEqual({ x: 1 });
        expect(completed.get('c1')?.output).toBe('echoed a');
        expect(completed.get('c2')?.output).toBe(outputFor(server.requests[1]?.body, 'c2'));
        expect(completed.get('c2')?.output).toMatch(/^Error: /);
      },
    );
  });

  it('sums the usage of every step and reports each step', async () => {
    const echo = textTool('echo', (text) => text);
    await withServer(
      [
        reply.functionCalls([{ name: 'echo', arguments: { text: 'a' } }], { usage: { inputTokens: 100, outputTokens: 10, cachedTokens: 40 } }),
        reply.text('done', { usage: { inputTokens: 150, outputTokens: 5 } }),
      ],
      async (server) => {
        const log = eventLog();
        const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [echo], input: 'go', onEvent: log.onEvent });
        expect(log.of('usage').map((event) => event.usage.inputTokens)).toEqual([100, 150]);
        expect(result.usage).toMatchObject({ inputTokens: 250, outputTokens: 15, totalTokens: 265, cachedInputTokens: 40 });
      },
    );
  });

  it('starts every parallel call before any of them completes', async () => {
    const started: string[] = [];
    const allStarted = gate();
    const wait = textTool('wait', async (text) => {
      started.push(text);
      if (started.length === 3) allStarted.open();
      await allStarted.promise;
      return text;
    });
    await withServer(
      [
        reply.functionCalls(['a', 'b', 'c'].map((text) => ({ name: 'wait', arguments: { text }, callId: `c_${text}` }))),
        reply.text('ok'),
      ],
      async (server) => {
        const log = eventLog();
        const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [wait], input: 'go', onEvent: log.onEvent });
        expect(result.reason).toBe('completed');
        expect(log.activity().slice(0, 3)).toEqual(['start c_a', 'start c_b', 'start c_c']);
        // Outputs go back in the model's order.
        const outputs = (server.requests[1]?.body.input as Array<{ type: string; call_id?: string }>).filter((item) => item.type === 'function_call_output');
        expect(outputs.map((item) => item.call_id)).toEqual(['c_a', 'c_b', 'c_c']);
      },
    );
  });

  it('runs a sequential call after every call before it and before every call after it', async () => {
    const parallel = textTool('read', async (text) => {
      await new Promise((resolve) => setImmediate(resolve));
      return text;
    });
    const sequential = textTool('write', (text) => text, { executionMode: 'sequential' });
    await withServer(
      [
        reply.functionCalls([
          { name: 'read', arguments: { text: '1' }, callId: 'r1' },
          { name: 'read', arguments: { text: '2' }, callId: 'r2' },
          { name: 'write', arguments: { text: '3' }, callId: 'w1' },
          { name: 'read', arguments: { text: '4' }, callId: 'r3' },
        ]),
        reply.text('ok'),
      ],
      async (server) => {
        const log = eventLog();
        await runAgentLoop({ gateway: gatewayFor(server), tools: [parallel, sequential], input: 'go', onEvent: log.onEvent });
        const order = log.activity();
        expect(order.indexOf('start w1')).toBeGreaterThan(order.indexOf('end r1'));
        expect(order.indexOf('start w1')).toBeGreaterThan(order.indexOf('end r2'));
        expect(order.indexOf('start r3')).toBeGreaterThan(order.indexOf('end w1'));
        expect(order.indexOf('start r2')).toBeLessThan(order.indexOf('end r1'));
      },
    );
  });

  it('keeps at most maxConcurrency parallel calls in flight', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const work = textTool('work', async (text) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return text;
    });
    await withServer(
      [reply.functionCalls(Array.from({ length: 7 }, (_, index) => ({ name: 'work', arguments: { text: String(index) } }))), reply.text('ok')],
      async (server) => {
        await runAgentLoop({ gateway: gatewayFor(server), tools: [work], input: 'go', maxConcurrency: 2 });
        expect(maxInFlight).toBe(2);
      },
    );
  });

  it('times out a tool that ignores its signal, aborts that signal and tells the model', async () => {
    let toolSignal: AbortSignal | undefined;
    const stuck = textTool(
      'stuck',
      (_text, signal) => {
        toolSignal = signal;
        return new Promise<never>(() => {});
      },
      { timeoutMs: 50 },
    );
    await withServer([reply.functionCalls([{ name: 'stuck', arguments: { text: 'x' }, callId: 'c1' }]), reply.text('gave up')], async (server) => {
      const log = eventLog();
      const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [stuck], input: 'go', onEvent: log.onEvent });
      expect(result.reason).toBe('completed');
      expect(log.of('activity.completed')[0]?.status).toBe('timeout');
      expect(toolSignal?.aborted).toBe(true);
      expect(outputFor(server.requests[1]?.body, 'c1')).toMatch(/^Error: Tool "stuck" did not finish within 50 ms and was aborted\./);
    });
  });

  it('ends aborted mid-tool with aborted outputs for unfinished calls, starts nothing after, sends no further request', async () => {
    const controller = new AbortController();
    const started: string[] = [];
    const hang = textTool(
      'hang',
      (text) => {
        started.push(text);
        setImmediate(() => controller.abort());
        return new Promise<never>(() => {});
      },
      { executionMode: 'sequential' },
    );
    await withServer(
      [
        reply.functionCalls([
          { name: 'hang', arguments: { text: 'first' }, callId: 'c1' },
          { name: 'hang', arguments: { text: 'second' }, callId: 'c2' },
        ]),
        reply.text('never asked'),
      ],
      async (server) => {
        const log = eventLog();
        const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [hang], input: 'go', signal: controller.signal, onEvent: log.onEvent });
        expect(result.reason).toBe('aborted');
        expect(started).toEqual(['first']);
        expect(server.requests).toHaveLength(1);
        expect(log.of('activity.completed').map((event) => [event.callId, event.status])).toEqual([
          ['c1', 'aborted'],
          ['c2', 'aborted'],
        ]);
        const outputs = result.items.filter((item) => item.type === 'function_call_output');
        expect(outputs.map((item) => (item as { output: unknown }).output)).toEqual([
          'Error: hang was stopped before it finished because the turn was cancelled; anything it did until then stays done.',
          'Error: hang was not run because the turn was cancelled.',
        ]);
        expect(historyProblem(result.items)).toBeUndefined();
      },
    );
  });

  it('ends aborted when the signal aborts while the model is streaming', async () => {
    const controller = new AbortController();
    await withServer([reply.slow(reply.text('a long answer that streams slowly'), { delayMs: 200 })], async (server) => {
      const result = await runAgentLoop({
        gateway: gatewayFor(server),
        tools: [],
        input: 'go',
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type === 'step.started') setTimeout(() => controller.abort(), 50);
        },
      });
      expect(result.reason).toBe('aborted');
      expect(result.error).toBeUndefined();
      expect(historyProblem(result.items)).toBeUndefined();
    });
  });

  it('sends a thrown error back to the model as an error output with its message', async () => {
    const broken = textTool('broken', () => {
      throw new Error('the disk is full');
    });
    await withServer([reply.functionCalls([{ name: 'broken', arguments: { text: 'x' }, callId: 'c1' }]), reply.text('sorry')], async (server) => {
      const log = eventLog();
      await runAgentLoop({ gateway: gatewayFor(server), tools: [broken], input: 'go', onEvent: log.onEvent });
      expect(outputFor(server.requests[1]?.body, 'c1')).toBe('Error: tool "broken" failed: the disk is full');
      expect(log.of('activity.completed')[0]).toMatchObject({ status: 'error', error: 'the disk is full' });
    });
  });

  it('answers an unknown tool with the valid names, and reports it as an activity', async () => {
    const echo = textTool('echo', (text) => text);
    await withServer([reply.functionCalls([{ name: 'ecko', arguments: { text: 'x' }, callId: 'c1' }]), reply.text('oops')], async (server) => {
      const log = eventLog();
      await runAgentLoop({ gateway: gatewayFor(server), tools: [echo], input: 'go', onEvent: log.onEvent });
      expect(outputFor(server.requests[1]?.body, 'c1')).toBe('Error: unknown tool "ecko". Call one of the available tools: echo.');
      expect(log.activity()).toEqual(['start c1', 'end c1']);
    });
  });

  it('sends the validation message of invalid arguments to the model', async () => {
    let ran = false;
    const echo = textTool('echo', (text) => {
      ran = true;
      return text;
    });
    await withServer([reply.functionCalls([{ name: 'echo', arguments: { words: ['a'] }, callId: 'c1' }]), reply.text('retrying')], async (server) => {
      await runAgentLoop({ gateway: gatewayFor(server), tools: [echo], input: 'go' });
      expect(ran).toBe(false);
      const output = outputFor(server.requests[1]?.body, 'c1');
      expect(output).toMatch(/^Error: invalid arguments for tool "echo": /);
      expect(output).toMatch(/text/);
    });
  });

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
        expect(log.of('presentation')).toEqual([{ type: 'presentation', step: 1, callId: 'c1', toolName: 'submit', event: { kind: 'link', url: 'https://example.com' } }]);
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
    await withServer(
      [reply.functionCalls([{ name: 'finish', arguments: {}, callId: 'c1' }]), reply.text('continuing')],
      async (server) => {
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
      },
    );
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
    await withServer([reply.httpError(401, { message: 'Incorrect API key provided: test-key.', type: 'invalid_request_error', code: 'invalid_api_key' })], async (server) => {
      const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [], input: 'go' });
      expect(result.reason).toBe('error');
      expect(result.error).toMatch(/rejected the API key \(HTTP 401: Incorrect API key provided/);
    });
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
