import { checkRequestSemantics } from '@core/testkit';
import { describe, expect, it } from 'vitest';
import type { ResponseInputItem } from '../gateway/model-gateway.js';
import { estimateTokens } from './estimate-tokens.js';
import { localCompactor } from './local-compactor.js';
import { recentTailStart } from './recent-tail.js';

const big = (name: string) => `${name} `.repeat(2_000);

/** user, then `steps` steps of reasoning + call + 10 KB output. */
function history(steps: number): ResponseInputItem[] {
  const items: ResponseInputItem[] = [{ type: 'message', role: 'user', content: 'Read all files.' }];
  for (let step = 0; step < steps; step += 1) {
    items.push({ type: 'reasoning', id: `rs_${step}`, summary: [], encrypted_content: `enc_${step}` } as ResponseInputItem);
    items.push({ type: 'function_call', id: `fc_${step}`, call_id: `call_${step}`, name: 'read_file', arguments: JSON.stringify({ path: `f${step}` }) });
    items.push({ type: 'function_call_output', call_id: `call_${step}`, output: big(`f${step}`) });
  }
  return items;
}

const request = (items: ResponseInputItem[], targetTokens: number, window = 100_000) => ({ items, window, targetTokens, reason: 'threshold' as const });

describe('recentTailStart', () => {
  it('starts at the last response: its reasoning, its calls and their outputs', () => {
    const items = history(3);
    expect(recentTailStart(items)).toBe(items.length - 3);
    expect(recentTailStart([...items, { role: 'user', content: 'next' }])).toBe(items.length);
  });
});

describe('localCompactor', () => {
  it('elides the oldest outputs first until the target, keeping the user message, reasoning, ids and the last step', async () => {
    const items = history(6);
    const result = await localCompactor().compact(request(items, 5_000));
    const compacted = result!.items as unknown as Array<Record<string, unknown>>;
    expect(result?.strategy).toBe('local');
    expect(compacted).toHaveLength(items.length);
    expect(compacted[0]).toEqual(items[0]);
    expect(compacted.filter((item) => item.type === 'reasoning')).toHaveLength(6);
    const outputs = compacted.filter((item) => item.type === 'function_call_output').map((item) => String(item.output));
    expect(outputs[0]).toMatch(/^\[elided by context compaction: the output of read_file\(\{"path":"f0"\}\), 6,000 characters/);
    expect(outputs.at(-1)).toBe(big('f5'));
    expect(estimateTokens(compacted)).toBeLessThanOrEqual(5_000);
    // The newest outputs that fit the target stay whole.
    expect(outputs.filter((output) => output.startsWith('[elided'))).toHaveLength(4);
    expect(outputs[4]).toBe(big('f4'));
    expect(checkRequestSemantics({ model: 'm', input: compacted })).toBeUndefined();
  });

  it('elides the last step too only when the history would not fit the window otherwise', async () => {
    const items = history(2);
    const within = await localCompactor().compact(request(items, 100, 100_000));
    expect(String((within!.items.at(-1) as { output: string }).output)).toBe(big('f1'));
    const over = await localCompactor().compact(request(items, 100, 1_000));
    expect(String((over!.items.at(-1) as { output: string }).output)).toMatch(/^\[elided/);
  });

  it('cannot help with a stored chain, or when nothing is long enough to elide', async () => {
    expect(await localCompactor().compact({ ...request(history(3), 10), previousResponseId: 'resp_1' })).toBeUndefined();
    expect(await localCompactor().compact(request([{ role: 'user', content: 'hi' }], 1))).toBeUndefined();
  });

  it('with summarize, replaces the older part by a summary after the user messages', async () => {
    const seen: number[] = [];
    const compactor = localCompactor({
      summarize: async (older) => {
        seen.push(older.length);
        return 'Read f0 to f3.';
      },
    });
    const items = history(5);
    const result = await compactor.compact(request(items, 1_000));
    expect(result?.strategy).toBe('local-summary');
    expect(seen).toEqual([12]);
    expect(result!.items.map((item) => (item as { type?: string }).type)).toEqual(['message', 'message', 'reasoning', 'function_call', 'function_call_output']);
    expect((result!.items[1] as { content: string }).content).toContain('Read f0 to f3.');
    expect(checkRequestSemantics({ model: 'm', input: result!.items })).toBeUndefined();
  });

  it('falls back to notes when the summary fails', async () => {
    const compactor = localCompactor({ summarize: async () => Promise.reject(new Error('model down')) });
    const result = await compactor.compact(request(history(4), 5_000));
    expect(result?.strategy).toBe('local');
  });
});
