import OpenAI from 'openai';
import { reply, streamCapture } from '@core/testkit';
import { describe, expect, it } from 'vitest';
import { eventLog, gatewayFor, historyProblem, outputFor, textTool, withServer } from '../__fixtures__/loop-harness.js';
import { runAgentLoop } from '../loop/run-agent-loop.js';

type Item = Record<string, unknown>;

function inputOf(body: { input?: unknown }): Item[] {
  return Array.isArray(body.input) ? (body.input as Item[]) : [];
}

describe('runAgentLoop over the testkit stream captures', () => {
  describe('reasoning without encrypted_content', () => {
    it('is left out of the next store: false request, which the testkit accepts', async () => {
      const lookup = textTool('lookup', () => 'Sunny, 24 °C');
      await withServer([reply.capture(streamCapture('stateless-reasoning-without-encrypted-content')), reply.text('Sunny tomorrow.')], async (server) => {
        const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [lookup], input: 'Weather in Lyon?' });
        expect(result).toMatchObject({ reason: 'completed', text: 'Sunny tomorrow.', steps: 2 });
        const second = inputOf(server.requests[1]?.body);
        expect(server.requests[1]?.body.store).toBe(false);
        expect(second.map((item) => item.type ?? item.role)).toEqual(['message', 'function_call', 'function_call_output']);
        expect(outputFor(server.requests[1]?.body, 'call_cap_stateless_01')).toBe('Sunny, 24 °C');
        // The history keeps it: a stored conversation can still replay it by id.
        expect(result.items.some((item) => item.type === 'reasoning')).toBe(true);
      });
    });

    it('is left out of a continued turn started from the items', async () => {
      const lookup = textTool('lookup', () => 'Sunny');
      await withServer(
        [reply.capture(streamCapture('stateless-reasoning-without-encrypted-content')), reply.text('Sunny.'), reply.text('Still sunny.')],
        async (server) => {
          const first = await runAgentLoop({ gateway: gatewayFor(server), tools: [lookup], input: 'Weather in Lyon?' });
          const second = await runAgentLoop({ gateway: gatewayFor(server), tools: [lookup], input: [...first.items, { role: 'user', content: 'And after?' }] });
          expect(second).toMatchObject({ reason: 'completed', text: 'Still sunny.' });
          expect(inputOf(server.requests[2]?.body).some((item) => item.type === 'reasoning')).toBe(false);
        },
      );
    });

    it('is echoed with store: true, where the API finds it by id', async () => {
      const lookup = textTool('lookup', () => 'Sunny');
      await withServer([reply.capture(streamCapture('stateless-reasoning-without-encrypted-content')), reply.text('Sunny.')], async (server) => {
        const result = await runAgentLoop({ gateway: gatewayFor(server, { store: true }), tools: [lookup], input: 'Weather in Lyon?' });
        expect(result.reason).toBe('completed');
        expect(inputOf(server.requests[1]?.body).find((item) => item.type === 'reasoning')).toMatchObject({ id: 'rs_cap_stateless_01' });
      });
    });

    it('gets the API 404 from the testkit when a store: false request echoes it', async () => {
      await withServer([reply.capture(streamCapture('stateless-reasoning-without-encrypted-content')), reply.text('never')], async (server) => {
        const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
        const first = await client.responses.create({ model: 'test-model', input: 'Weather in Lyon?', store: false });
        const echoed = [
          { role: 'user' as const, content: 'Weather in Lyon?' },
          ...first.output,
          { type: 'function_call_output' as const, call_id: 'call_cap_stateless_01', output: 'Sunny' },
        ];
        const error = await client.responses
          .create({ model: 'test-model', input: echoed as OpenAI.Responses.ResponseInput, store: false })
          .catch((thrown: unknown) => thrown);
        expect(error).toBeInstanceOf(OpenAI.NotFoundError);
        expect((error as InstanceType<typeof OpenAI.APIError>).message).toContain(
          "Item with id 'rs_cap_stateless_01' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.",
        );
        expect(server.remaining).toBe(1);
      });
    });
  });

  describe('a custom tool call', () => {
    it('gets a custom_tool_call_output error, and the next request is valid', async () => {
      const lookup = textTool('lookup', () => 'x');
      await withServer([reply.capture(streamCapture('custom-tool-call')), reply.text('I will answer without SQL.')], async (server) => {
        const log = eventLog();
        const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [lookup], input: 'Who is older than 25?', onEvent: log.onEvent });
        expect(result).toMatchObject({ reason: 'completed', text: 'I will answer without SQL.', steps: 2 });
        const second = inputOf(server.requests[1]?.body);
        expect(second.slice(1)).toEqual([
          {
            type: 'custom_tool_call',
            id: 'ctc_cap_custom_01',
            call_id: 'call_cap_custom_01',
            name: 'write_sql',
            input: 'SELECT name FROM users WHERE age > 25',
          },
          {
            type: 'custom_tool_call_output',
            call_id: 'call_cap_custom_01',
            output: 'Error: no custom tool "write_sql" is available in this turn: it offers function tools only. Call one of them instead.',
          },
        ]);
        expect(log.of('activity.completed')).toMatchObject([{ callId: 'call_cap_custom_01', toolName: 'write_sql', status: 'error' }]);
        expect(historyProblem(result.items)).toBeUndefined();
      });
    });

    it('answers other client calls with their own error outputs and leaves a computer call out', async () => {
      const lookup = textTool('lookup', () => 'x');
      const calls = reply.items([
        { type: 'apply_patch_call', call_id: 'call_patch', status: 'completed', operation: { type: 'delete_file', path: 'a.txt' } },
        {
          type: 'shell_call',
          call_id: 'call_shell',
          status: 'completed',
          action: { commands: ['ls'], timeout_ms: null, max_output_length: null },
          environment: { type: 'local' },
        },
        { type: 'computer_call', call_id: 'call_computer', status: 'completed', action: { type: 'screenshot' }, pending_safety_checks: [] },
      ]);
      await withServer([calls, reply.text('done')], async (server) => {
        const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [lookup], input: 'go' });
        expect(result).toMatchObject({ reason: 'completed', text: 'done' });
        const second = inputOf(server.requests[1]?.body);
        expect(second.map((item) => item.type ?? item.role)).toEqual([
          'message',
          'apply_patch_call',
          'shell_call',
          'apply_patch_call_output',
          'shell_call_output',
        ]);
        expect(second[3]).toMatchObject({ call_id: 'call_patch', status: 'failed', output: expect.stringMatching(/^Error: no apply_patch tool/) });
        expect(second[4]).toMatchObject({ call_id: 'call_shell', output: [{ stdout: '', outcome: { type: 'exit', exit_code: 1 } }] });
      });
    });
  });

  describe('the multi_tool_use.parallel wrapper', () => {
    it('runs its inner calls and answers the wrapper with their outputs in order', async () => {
      const weather = textTool('weather', (city) => `Sunny in ${city}`);
      const attractions = textTool('city_attractions', (city) => `The Colosseum (${city})`);
      await withServer([reply.capture(streamCapture('parallel-tool-call-wrapper')), reply.text('Both done.')], async (server) => {
        const log = eventLog();
        const result = await runAgentLoop({
          gateway: gatewayFor(server),
          tools: [weather, attractions],
          input: 'Weather in Lyon, sights in Rome',
          onEvent: log.onEvent,
        });
        expect(result).toMatchObject({ reason: 'completed', text: 'Both done.', toolCalls: 2 });
        const outputs = inputOf(server.requests[1]?.body).filter((item) => item.type === 'function_call_output');
        expect(outputs).toEqual([
          {
            type: 'function_call_output',
            call_id: 'call_cap_parallel_01',
            output: '[1] functions.weather:\nSunny in Lyon\n\n[2] functions.city_attractions:\nThe Colosseum (Rome)',
          },
        ]);
        expect(log.of('activity.completed').map((event) => [event.callId, event.toolName, event.status])).toEqual([
          ['call_cap_parallel_01#1', 'weather', 'success'],
          ['call_cap_parallel_01#2', 'city_attractions', 'success'],
        ]);
        expect(historyProblem(result.items)).toBeUndefined();
      });
    });

    it('keeps a sequential inner call after the calls before it', async () => {
      const order: string[] = [];
      const weather = textTool('weather', async (city) => {
        order.push(`start weather ${city}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push(`end weather ${city}`);
        return city;
      });
      const attractions = textTool(
        'city_attractions',
        (city) => {
          order.push(`run city_attractions ${city}`);
          return city;
        },
        { executionMode: 'sequential' },
      );
      await withServer([reply.capture(streamCapture('parallel-tool-call-wrapper')), reply.text('ok')], async (server) => {
        await runAgentLoop({ gateway: gatewayFor(server), tools: [weather, attractions], input: 'go' });
        expect(order).toEqual(['start weather Lyon', 'end weather Lyon', 'run city_attractions Rome']);
      });
    });

    it('validates each inner call and reports an unknown recipient inside the one output', async () => {
      const weather = textTool('weather', (city) => `Sunny in ${city}`);
      await withServer([reply.capture(streamCapture('parallel-tool-call-wrapper')), reply.text('ok')], async (server) => {
        await runAgentLoop({ gateway: gatewayFor(server), tools: [weather], input: 'go' });
        const output = outputFor(server.requests[1]?.body, 'call_cap_parallel_01') as string;
        expect(output).toMatch(/^\[1\] functions\.weather:\nSunny in Lyon\n\n\[2\] functions\.city_attractions:\nError: unknown tool "city_attractions"/);
      });
    });

    it('calls a real tool named parallel as it is', async () => {
      const parallel = textTool('parallel', (text) => `ran ${text}`);
      await withServer([reply.functionCalls([{ name: 'parallel', arguments: { text: 'a' }, callId: 'c1' }]), reply.text('ok')], async (server) => {
        await runAgentLoop({ gateway: gatewayFor(server), tools: [parallel], input: 'go' });
        expect(outputFor(server.requests[1]?.body, 'c1')).toBe('ran a');
      });
    });
  });

  describe('phased messages', () => {
    it('make the final answer the turn text and keep the commentary in events', async () => {
      await withServer([reply.capture(streamCapture('phased-messages'))], async (server) => {
        const log = eventLog();
        const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [], input: 'Weather in Lyon tomorrow?', onEvent: log.onEvent });
        expect(result.text).toBe('Tomorrow in Lyon: sunny, 24 °C, light wind from the north.');
        expect(log.of('message.completed').map((event) => [event.phase, event.text])).toEqual([
          ['commentary', "I'll check the forecast for Lyon and then summarise it."],
          ['final_answer', 'Tomorrow in Lyon: sunny, 24 °C, light wind from the north.'],
        ]);
        const commentary = log
          .of('text.delta')
          .filter((event) => event.phase === 'commentary')
          .map((event) => event.delta)
          .join('');
        expect(commentary).toBe("I'll check the forecast for Lyon and then summarise it.");
        expect(log.of('text.completed').map((event) => event.text)).toEqual([result.text]);
      });
    });

    it('separates messages by a blank line when no phase marks the final answer', async () => {
      const messages = reply.items([
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'I looked it up.', annotations: [] }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Here it is.', annotations: [] }] },
      ]);
      await withServer([messages], async (server) => {
        const result = await runAgentLoop({ gateway: gatewayFor(server), tools: [], input: 'go' });
        expect(result.text).toBe('I looked it up.\n\nHere it is.');
      });
    });
  });
});
