import { describe, expect, it } from 'vitest';
import { estimateTokens } from './estimate-tokens.js';

describe('estimateTokens', () => {
  it('counts about a quarter of the JSON length, without serialising', () => {
    const items = [
      { type: 'message', role: 'user', content: 'Read all the files in the folder.' },
      { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}', status: 'completed' },
      { type: 'function_call_output', call_id: 'call_1', output: 'y'.repeat(20_000) },
      { type: 'reasoning', summary: [], encrypted_content: null, extra: undefined, count: 12, ok: true },
    ];
    const exact = Math.ceil(JSON.stringify(items).length / 4);
    expect(Math.abs(estimateTokens(items) - exact)).toBeLessThanOrEqual(8);
    expect(estimateTokens('abcd'.repeat(10))).toBe(10);
    expect(estimateTokens(undefined)).toBe(0);
  });
});
