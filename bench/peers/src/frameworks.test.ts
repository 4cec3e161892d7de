import { describe, expect, it } from 'vitest';
import { FRAMEWORKS, selectFrameworks } from './frameworks.js';
import { makeCalls, VALIDATION_ARGUMENTS } from './workload.js';

describe('the workload', () => {
  it('has argument strings of 140–220 bytes and a 207-byte validation string', () => {
    for (const call of makeCalls(50)) {
      const bytes = Buffer.byteLength(call.arguments);
      expect(bytes).toBeGreaterThanOrEqual(140);
      expect(bytes).toBeLessThanOrEqual(220);
    }
    expect(Buffer.byteLength(VALIDATION_ARGUMENTS)).toBe(207);
  });
});

describe.each(FRAMEWORKS.map((framework) => [framework.key, framework] as const))('the %s adapter', (_key, framework) => {
  it('executes every call and sends every output back, at each response size', async () => {
    const adapter = await framework.load();
    try {
      // runTurn throws when a call was not executed or an output did not reach the fake model.
      for (const calls of [0, 1, 10, 50, 3]) await adapter.runTurn(calls);
      expect(await adapter.collectTools()).toHaveLength(100);
      if (adapter.collectToolsFromNewArray !== undefined) expect(await adapter.collectToolsFromNewArray()).toHaveLength(100);
      expect(await adapter.validateArguments()).toMatchObject({ mode: 'write', limit: 250 });
    } finally {
      adapter.afterBatch?.();
    }
  });
});

describe('--only', () => {
  it('selects by key or alias and refuses unknown names', () => {
    expect(selectFrameworks('ours').map((framework) => framework.key)).toEqual(['ours']);
    expect(selectFrameworks('@openai/agents, pi').map((framework) => framework.key)).toEqual(['agents', 'pi']);
    expect(selectFrameworks(undefined)).toHaveLength(FRAMEWORKS.length);
    expect(() => selectFrameworks('langchain')).toThrow(/unknown framework "langchain"/);
  });
});
