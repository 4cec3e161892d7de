import { reply } from '@core/testkit';
import { describe, expect, it } from 'vitest';
import { eventLog, gate, gatewayFor, historyProblem, outputFor, textTool, withServer } from '../__fixtures__/loop-harness.js';
import { runAgentLoop } from './run-agent-loop.js';

describe('runAgentLoop over the openai SDK and the testkit server', () => {
  it('runs a tool, sends its output back and ends with the model text, streaming the deltas in order', async () => {
    const echo = textTool('echo', (text) => `echoed ${text}`);
    await withServer([reply.functionCalls([{ name: 'echo', arguments: { text: 'hi' }, callId: 'c1' }]), reply.text('All done, thank you.')], async (server) => {
      const log = eventLog();
      const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [echo], input: 'say hi', instructions: 'Be brief.', onEvent: log.onEvent });
      expect(result.reason).toBe('completed');
      expect(result.steps).toBe(2);
      expect(result.text).toBe('All done, thank you.');
      expect(result.toolCalls).toBe(1);
      expect(outputFor(server.requests[1]?.body, 'c1')).toBe('echoed hi');
      expect(server.requests[0]?.body).toMatchObject({ stream: true, store: false, parallel_tool_calls: true, instructions: 'Be brief.' });
      expect(
        log
          .of('text.delta')
          .map((event) => event.delta)
          .join(''),
      ).toBe('All done, thank you.');
      expect(log.of('text.completed').map((event) => event.text)).toEqual(['All done, thank you.']);
      expect(log.events.at(-1)).toMatchObject({ type: 'turn.completed', reason: 'completed', steps: 2 });
      expect(historyProblem(result.items)).toBeUndefined();
    });
  });

  it('emits the events of a turn in order', async () => {
    const echo = textTool('echo', (text) => text);
    await withServer(
      [reply.functionCalls([{ name: 'echo', arguments: { text: 'a' }, callId: 'c1' }], { text: 'Let me check.' }), reply.text('Done.')],
      async (server) => {
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
      },
    );
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
      [reply.functionCalls(['a', 'b', 'c'].map((text) => ({ name: 'wait', arguments: { text }, callId: `c_${text}` }))), reply.text('ok')],
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
});
