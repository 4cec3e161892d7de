import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentToolMap } from '../tool/agent-tool-map.js';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import type { FunctionCallItem, ToolCallOutcome } from './dispatch-tool-calls.js';
import { expandParallelWrapper, parallelWrapperOutput } from './expand-parallel-wrapper.js';

const tool = (name: string, namespace?: string) =>
  defineWorkerTool({
    name,
    ...(namespace === undefined ? {} : { namespace }),
    description: `Tool ${name}.`,
    schema: z.object({ text: z.string() }),
    describeActivity: () => name,
    execute: () => ({ content: name }),
  });

const wrapperCall = (args: unknown, name = 'parallel', namespace?: string): FunctionCallItem => ({
  type: 'function_call',
  call_id: 'call_w',
  name,
  ...(namespace === undefined ? {} : { namespace }),
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});

const toolMap = agentToolMap([tool('read'), tool('get_forecast', 'weather')]);

describe('expandParallelWrapper', () => {
  it('turns each tool_uses entry into a call, namespaced recipients included', () => {
    const expanded = expandParallelWrapper(
      wrapperCall({
        tool_uses: [
          { recipient_name: 'functions.read', parameters: { text: 'a' } },
          { recipient_name: 'weather.get_forecast', parameters: { text: 'Lyon' } },
        ],
      }),
      toolMap,
    );
    expect(expanded?.calls).toEqual([
      { type: 'function_call', call_id: 'call_w#1', name: 'read', arguments: '{"text":"a"}' },
      { type: 'function_call', call_id: 'call_w#2', name: 'get_forecast', namespace: 'weather', arguments: '{"text":"Lyon"}' },
    ]);
  });

  it('knows the wrapper by its other names', () => {
    const args = { tool_uses: [{ recipient_name: 'functions.read', parameters: { text: 'a' } }] };
    expect(expandParallelWrapper(wrapperCall(args, 'multi_tool_use.parallel'), toolMap)?.calls).toHaveLength(1);
    expect(expandParallelWrapper(wrapperCall(args, 'parallel', 'multi_tool_use'), toolMap)?.calls).toHaveLength(1);
  });

  it('leaves an ordinary call alone: a real tool named parallel, or arguments without tool_uses', () => {
    const args = { tool_uses: [{ recipient_name: 'functions.read', parameters: { text: 'a' } }] };
    expect(expandParallelWrapper(wrapperCall(args), agentToolMap([tool('parallel'), tool('read')]))).toBeUndefined();
    expect(expandParallelWrapper(wrapperCall({ text: 'a' }), toolMap)).toBeUndefined();
    expect(expandParallelWrapper(wrapperCall({ tool_uses: [] }), toolMap)).toBeUndefined();
    expect(expandParallelWrapper(wrapperCall({ tool_uses: [{ parameters: {} }] }), toolMap)).toBeUndefined();
    expect(expandParallelWrapper(wrapperCall(args, 'read'), toolMap)).toBeUndefined();
  });
});

describe('parallelWrapperOutput', () => {
  const expanded = expandParallelWrapper(
    wrapperCall({
      tool_uses: [
        { recipient_name: 'functions.read', parameters: { text: 'a' } },
        { recipient_name: 'functions.read', parameters: { text: 'b' } },
      ],
    }),
    toolMap,
  );
  const outcome = (callId: string, output: ToolCallOutcome['output']['output']) =>
    ({ output: { type: 'function_call_output', call_id: callId, output } }) as ToolCallOutcome;

  it('answers on the wrapper call id with the inner outputs in order', () => {
    const output = parallelWrapperOutput(expanded!, [outcome('call_w#1', 'A'), outcome('call_w#2', 'Error: B failed')]);
    expect(output).toEqual({ type: 'function_call_output', call_id: 'call_w', output: '[1] functions.read:\nA\n\n[2] functions.read:\nError: B failed' });
  });

  it('keeps image parts as parts', () => {
    const image = { type: 'input_image' as const, image_url: 'data:image/png;base64,AAAA', detail: 'auto' as const };
    const output = parallelWrapperOutput(expanded!, [outcome('call_w#1', [image]), outcome('call_w#2', 'B')]);
    expect(output.output).toEqual([{ type: 'input_text', text: '[1] functions.read:\n' }, image, { type: 'input_text', text: '\n\n[2] functions.read:\nB' }]);
  });
});
