import { describe, expect, it } from 'vitest';
import { unhandledCall } from './answer-unhandled-calls.js';
import type { ResponseOutputItem } from '../gateway/model-gateway.js';

const item = (value: Record<string, unknown>) => value as unknown as ResponseOutputItem;

describe('unhandledCall', () => {
  it('answers a custom tool call with a custom_tool_call_output error', () => {
    expect(unhandledCall(item({ type: 'custom_tool_call', call_id: 'c1', name: 'write_sql', input: 'SELECT 1' }))).toMatchObject({
      kind: 'answered',
      output: { type: 'custom_tool_call_output', call_id: 'c1', output: expect.stringMatching(/^Error: no custom tool "write_sql"/) },
    });
  });

  it('answers a local_shell_call by its call id', () => {
    expect(unhandledCall(item({ type: 'local_shell_call', id: 'lsh_1', call_id: 'c2', action: {}, status: 'completed' }))).toMatchObject({
      kind: 'answered',
      output: { type: 'local_shell_call_output', id: 'c2', call_id: 'c2', output: expect.stringContaining('"error"') },
    });
  });

  it('leaves a hosted shell call, server tool calls, messages and function calls to others', () => {
    expect(unhandledCall(item({ type: 'shell_call', call_id: 'c3', environment: { type: 'container_reference', container_id: 'x' } }))).toBeUndefined();
    expect(unhandledCall(item({ type: 'web_search_call', id: 'ws_1', status: 'completed' }))).toBeUndefined();
    expect(unhandledCall(item({ type: 'function_call', call_id: 'c4', name: 'f', arguments: '{}' }))).toBeUndefined();
    expect(unhandledCall(item({ type: 'message', role: 'assistant', content: [] }))).toBeUndefined();
  });

  it('leaves a computer call out of the history', () => {
    expect(unhandledCall(item({ type: 'computer_call', call_id: 'c5', action: { type: 'screenshot' } }))).toMatchObject({ kind: 'left_out', callId: 'c5' });
  });
});
