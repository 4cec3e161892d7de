import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentToolMap } from '../tool/agent-tool-map.js';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import { dispatchToolCalls, type FunctionCallItem, type ToolCallOutcome } from './dispatch-tool-calls.js';
import { ToolTimeoutError } from '../errors.js';
import type { ExecutionMode, ToolExecutionContext } from '../tool/worker-agent-tool.js';

function call(name: string, args: unknown, callId: string, namespace?: string): FunctionCallItem {
  const item: FunctionCallItem = { type: 'function_call', call_id: callId, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
  if (namespace !== undefined) item.namespace = namespace;
  return item;
}

/** A deferred promise: a tool waits on it, the test resolves it. */
function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

function echoTool(name: string, executionMode: ExecutionMode, run: (text: string, signal: AbortSignal) => Promise<string> | string) {
  return defineWorkerTool({
    name,
    description: `Echo tool ${name}.`,
    schema: z.object({ text: z.string() }),
    executionMode,
    describeActivity: (params) => `${name}(${params.text})`,
    execute: async (params, context) => ({ content: await run(params.text, context.signal) }),
  });
}

describe('dispatchToolCalls', () => {
  it('returns one outcome per call in the model order even when later calls finish first', async () => {
    const first = gate();
    const slow = echoTool('slow', 'parallel', async (text) => {
      await first.promise;
      return `slow:${text}`;
    });
    const fast = echoTool('fast', 'parallel', (text) => {
      first.open();
      return `fast:${text}`;
    });
    const completionOrder: string[] = [];
    const outcomes = await dispatchToolCalls([call('slow', { text: 'a' }, 'c1'), call('fast', { text: 'b' }, 'c2')], agentToolMap([slow, fast]), {
      onCallCompleted: (outcome) => completionOrder.push(outcome.callId),
    });
    expect(completionOrder).toEqual(['c2', 'c1']);
    expect(outcomes.map((outcome) => outcome.output)).toEqual([
      { type: 'function_call_output', call_id: 'c1', output: 'slow:a' },
      { type: 'function_call_output', call_id: 'c2', output: 'fast:b' },
    ]);
    expect(outcomes.map((outcome) => outcome.label)).toEqual(['slow(a)', 'fast(b)']);
  });

  it('starts every call of a parallel run before any of them completes', async () => {
    const started: string[] = [];
    const allStarted = gate();
    const tool = echoTool('wait', 'parallel', async (text) => {
      started.push(text);
      if (started.length === 3) allStarted.open();
      await allStarted.promise;
      return text;
    });
    const events: string[] = [];
    await dispatchToolCalls(
      ['a', 'b', 'c'].map((text, index) => call('wait', { text }, `c${index}`)),
      agentToolMap([tool]),
      {
        onCallStarted: (item) => events.push(`start ${item.call_id}`),
        onCallCompleted: (outcome) => events.push(`end ${outcome.callId}`),
      },
    );
    expect(events.slice(0, 3)).toEqual(['start c0', 'start c1', 'start c2']);
  });

  it('runs a sequential call only after everything before it and before everything after it', async () => {
    const events: string[] = [];
    const parallel = echoTool('par', 'parallel', async (text) => {
      await Promise.resolve();
      return text;
    });
    const sequential = echoTool('seq', 'sequential', (text) => text);
    await dispatchToolCalls(
      [call('par', { text: '1' }, 'p1'), call('par', { text: '2' }, 'p2'), call('seq', { text: 's' }, 's1'), call('par', { text: '3' }, 'p3')],
      agentToolMap([parallel, sequential]),
      {
        onCallStarted: (item) => events.push(`start ${item.call_id}`),
        onCallCompleted: (outcome) => events.push(`end ${outcome.callId}`),
      },
    );
    const index = (event: string) => events.indexOf(event);
    expect(index('start s1')).toBeGreaterThan(index('end p1'));
    expect(index('start s1')).toBeGreaterThan(index('end p2'));
    expect(index('start p3')).toBeGreaterThan(index('end s1'));
  });

  it('never has more than maxConcurrency parallel calls in flight', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const tool = echoTool('work', 'parallel', async (text) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return text;
    });
    const calls = Array.from({ length: 10 }, (_, index) => call('work', { text: String(index) }, `c${index}`));
    const outcomes = await dispatchToolCalls(calls, agentToolMap([tool]), { maxConcurrency: 3 });
    expect(maxInFlight).toBe(3);
    expect(outcomes.every((outcome) => outcome.status === 'success')).toBe(true);
  });

  it('times out a tool that ignores its signal, and aborts that signal', async () => {
    let seenSignal: AbortSignal | undefined;
    const stuck = defineWorkerTool({
      name: 'stuck',
      description: 'Never finishes.',
      schema: z.object({}),
      executionMode: 'parallel',
      timeoutMs: 30,
      describeActivity: () => 'Stuck',
      execute: (_params, context) => {
        seenSignal = context.signal;
        return new Promise<never>(() => {});
      },
    });
    const [outcome] = await dispatchToolCalls([call('stuck', {}, 'c1')], agentToolMap([stuck]), { timeoutMs: 60_000 });
    expect(outcome?.status).toBe('timeout');
    expect(outcome?.output.output).toMatch(/^Error: Tool "stuck" did not finish within 30 ms/);
    expect(seenSignal?.aborted).toBe(true);
  });

  it('gives an already aborted signal to a tool that reads it only after its timeout', async () => {
    let context: ToolExecutionContext | undefined;
    const late = defineWorkerTool({
      name: 'late',
      description: 'Reads its signal late.',
      schema: z.object({}),
      timeoutMs: 10,
      describeActivity: () => 'Late',
      execute: (_params, received) => {
        context = received;
        return new Promise<never>(() => {});
      },
    });
    const [outcome] = await dispatchToolCalls([call('late', {}, 'c1')], agentToolMap([late]));
    expect(outcome?.status).toBe('timeout');
    expect(context?.signal.aborted).toBe(true);
    expect(context?.signal.reason).toBeInstanceOf(ToolTimeoutError);
  });

  it('times out a call that is still running after its first macrotask, and leaves no timer or immediate behind', async () => {
    const pending = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout' || kind === 'Immediate').length;
    const before = pending();
    const quick = echoTool('quick', 'parallel', async (text) => text);
    const slow = echoTool('slow', 'parallel', async (text) => {
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 5));
      return text;
    });
    const stuck = defineWorkerTool({
      name: 'stuck',
      description: 'Never finishes.',
      schema: z.object({}),
      executionMode: 'parallel',
      timeoutMs: 40,
      describeActivity: () => 'Stuck',
      execute: async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return new Promise<never>(() => {});
      },
    });
    const outcomes = await dispatchToolCalls(
      [call('quick', { text: 'a' }, 'c1'), call('slow', { text: 'b' }, 'c2'), call('stuck', {}, 'c3'), call('quick', { text: 'd' }, 'c4')],
      agentToolMap([quick, slow, stuck]),
      { timeoutMs: 60_000 },
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['success', 'success', 'timeout', 'success']);
    // At most as many as before: a timer left by an earlier test of this file may have fired meanwhile.
    expect(pending()).toBeLessThanOrEqual(before);
  });

  it('uses the dispatch default timeout when the tool sets none', async () => {
    const stuck = echoTool('stuck', 'sequential', () => new Promise<never>(() => {}));
    const [outcome] = await dispatchToolCalls([call('stuck', { text: 'x' }, 'c1')], agentToolMap([stuck]), { timeoutMs: 20 });
    expect(outcome?.status).toBe('timeout');
  });

  it('gives every unfinished call an aborted output when the turn aborts, and starts nothing after', async () => {
    const controller = new AbortController();
    const started: string[] = [];
    let firstSignal: AbortSignal | undefined;
    const hang = echoTool('hang', 'sequential', (text, signal) => {
      started.push(text);
      firstSignal = signal;
      queueMicrotask(() => controller.abort());
      return new Promise<never>(() => {});
    });
    const outcomes = await dispatchToolCalls([call('hang', { text: 'a' }, 'c1'), call('hang', { text: 'b' }, 'c2')], agentToolMap([hang]), {
      signal: controller.signal,
    });
    expect(started).toEqual(['a']);
    expect(firstSignal?.aborted).toBe(true);
    expect(outcomes.map((outcome) => [outcome.callId, outcome.status, outcome.started])).toEqual([
      ['c1', 'aborted', true],
      ['c2', 'aborted', false],
    ]);
    expect(outcomes.map((outcome) => outcome.output.output)).toEqual([
      'Error: hang was stopped before it finished because the turn was cancelled; anything it did until then stays done.',
      'Error: hang was not run because the turn was cancelled.',
    ]);
  });

  it('says why in the aborted outputs when the signal carries a reason (a cancelled job, Ctrl-C)', async () => {
    for (const [reason, why] of [
      [new Error('The job was cancelled.'), 'the job was cancelled'],
      [new DOMException('The turn was interrupted (Ctrl-C).', 'AbortError'), 'the turn was interrupted (Ctrl-C)'],
    ] as const) {
      const controller = new AbortController();
      const hang = echoTool('hang', 'sequential', () => {
        queueMicrotask(() => controller.abort(reason));
        return new Promise<never>(() => {});
      });
      const outcomes = await dispatchToolCalls([call('hang', { text: 'a' }, 'c1'), call('hang', { text: 'b' }, 'c2')], agentToolMap([hang]), {
        signal: controller.signal,
      });
      expect(outcomes.map((outcome) => outcome.error)).toEqual([
        `Error: hang was stopped before it finished because ${why}; anything it did until then stays done.`,
        `Error: hang was not run because ${why}.`,
      ]);
    }
  });

  it('starts nothing when the signal is already aborted', async () => {
    let ran = false;
    const tool = echoTool('t', 'parallel', (text) => {
      ran = true;
      return text;
    });
    const outcomes = await dispatchToolCalls([call('t', { text: 'a' }, 'c1')], agentToolMap([tool]), { signal: AbortSignal.abort() });
    expect(ran).toBe(false);
    expect(outcomes[0]?.status).toBe('aborted');
  });

  it('turns a thrown error into an error output with its message, not its stack', async () => {
    const broken = echoTool('broken', 'parallel', () => {
      throw new Error('disk full');
    });
    const [outcome] = await dispatchToolCalls([call('broken', { text: 'a' }, 'c1')], agentToolMap([broken]));
    expect(outcome?.status).toBe('error');
    expect(outcome?.output.output).toBe('Error: tool "broken" failed: disk full');
  });

  it('turns a synchronous throw and a non-result return into error outputs', async () => {
    const throwsSync = defineWorkerTool({
      name: 'sync_throw',
      description: 'Throws synchronously.',
      schema: z.object({}),
      describeActivity: () => 'x',
      execute: () => {
        throw new TypeError('bad');
      },
    });
    const returnsNothing = defineWorkerTool({
      name: 'nothing',
      description: 'Returns nothing.',
      schema: z.object({}),
      describeActivity: () => 'x',
      execute: () => undefined as never,
    });
    const outcomes = await dispatchToolCalls([call('sync_throw', {}, 'c1'), call('nothing', {}, 'c2')], agentToolMap([throwsSync, returnsNothing]));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['error', 'error']);
    expect(outcomes[1]?.output.output).toMatch(/returned no valid result/);
  });

  it('answers an unknown tool with the list of valid names', async () => {
    const tool = echoTool('read_file', 'parallel', (text) => text);
    const [outcome] = await dispatchToolCalls([call('write_file', { text: 'a' }, 'c1')], agentToolMap([tool]));
    expect(outcome?.status).toBe('error');
    expect(outcome?.started).toBe(false);
    expect(outcome?.output.output).toBe('Error: unknown tool "write_file". Call one of the available tools: read_file.');
  });

  it('caps the list of valid names in an unknown-tool error', async () => {
    const tools = Array.from({ length: 60 }, (_, index) => echoTool(`tool_${index}`, 'parallel', (text) => text));
    const [outcome] = await dispatchToolCalls([call('nope', {}, 'c1')], agentToolMap(tools));
    expect(outcome?.output.output).toMatch(/tool_39 \(and 20 more\)\.$/);
    expect(outcome?.output.output).not.toMatch(/tool_40/);
  });

  it('sends the validation message back when the arguments are invalid, without running the tool', async () => {
    let ran = false;
    const tool = echoTool('echo', 'parallel', (text) => {
      ran = true;
      return text;
    });
    const [outcome] = await dispatchToolCalls([call('echo', { words: ['a'] }, 'c1')], agentToolMap([tool]));
    expect(ran).toBe(false);
    expect(outcome?.status).toBe('error');
    expect(outcome?.output.output).toMatch(/^Error: invalid arguments for tool "echo": /);
    expect(outcome?.output.output).toMatch(/text/);
  });

  it('finds namespaced tools by namespace and name, and by a dotted name', async () => {
    const tool = defineWorkerTool({
      name: 'lookup',
      namespace: 'crm',
      description: 'Looks a customer up.',
      schema: z.object({ id: z.string() }),
      describeActivity: (params) => `Looking up ${params.id}`,
      execute: (params, context) => ({ content: `${context.namespace}/${context.toolName}/${params.id}` }),
    });
    const outcomes = await dispatchToolCalls(
      [call('lookup', { id: '7' }, 'c1', 'crm'), call('crm.lookup', { id: '8' }, 'c2'), call('lookup', { id: '9' }, 'c3')],
      agentToolMap([tool]),
    );
    expect(outcomes.map((outcome) => outcome.output.output)).toEqual([
      'crm/lookup/7',
      'crm/lookup/8',
      'Error: unknown tool "lookup". Call one of the available tools: crm.lookup.',
    ]);
    expect(outcomes[0]?.namespace).toBe('crm');
  });

  it('falls back to the tool name when describeActivity throws, and uses describeCompletedActivity', async () => {
    const tool = defineWorkerTool({
      name: 'label',
      description: 'Labels.',
      schema: z.object({}),
      describeActivity: () => {
        throw new Error('oops');
      },
      describeCompletedActivity: (_params, result) => `Done: ${String(result.content)}`,
      execute: () => ({ content: 'ok' }),
    });
    const [outcome] = await dispatchToolCalls([call('label', {}, 'c1')], agentToolMap([tool]));
    expect(outcome?.label).toBe('label');
    expect(outcome?.completedLabel).toBe('Done: ok');
  });

  it('keeps content parts and records terminateTurn and isError', async () => {
    const tool = defineWorkerTool({
      name: 'finish',
      description: 'Ends the turn.',
      schema: z.object({}),
      describeActivity: () => 'Finishing',
      execute: () => ({
        content: [
          { type: 'input_text' as const, text: 'see image' },
          { type: 'input_image' as const, image_url: 'data:image/png;base64,AAAA' },
        ],
        terminateTurn: true,
      }),
    });
    const failing = defineWorkerTool({
      name: 'soft_fail',
      description: 'Reports a failure.',
      schema: z.object({}),
      describeActivity: () => 'Failing softly',
      execute: () => ({ content: 'no such file', isError: true }),
    });
    const outcomes: ToolCallOutcome[] = await dispatchToolCalls([call('finish', {}, 'c1'), call('soft_fail', {}, 'c2')], agentToolMap([tool, failing]));
    expect(outcomes[0]?.terminateTurn).toBe(true);
    expect(outcomes[0]?.output.output).toEqual([
      { type: 'input_text', text: 'see image' },
      { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
    ]);
    expect(outcomes[1]?.status).toBe('error');
    expect(outcomes[1]?.output.output).toBe('no such file');
  });

  it('survives callbacks that throw', async () => {
    const tool = echoTool('t', 'parallel', (text) => text);
    const outcomes = await dispatchToolCalls([call('t', { text: 'a' }, 'c1')], agentToolMap([tool]), {
      onCallStarted: () => {
        throw new Error('observer');
      },
      onCallCompleted: () => {
        throw new Error('observer');
      },
    });
    expect(outcomes[0]?.status).toBe('success');
  });
});
