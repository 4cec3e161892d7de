import { describe, expect, it } from 'vitest';
import { contextWindowOf, DEFAULT_CONTEXT_WINDOW } from './context-window.js';

describe('contextWindowOf', () => {
  it('knows the model families, dated and suffixed names included', () => {
    expect(contextWindowOf('gpt-5.4-mini')).toBe(272_000);
    expect(contextWindowOf('gpt-4.1-2025-04-14')).toBe(1_047_576);
    expect(contextWindowOf('gpt-4o-2024-08-06')).toBe(128_000);
    expect(contextWindowOf('o3')).toBe(200_000);
    expect(contextWindowOf('o1-mini')).toBe(128_000);
  });

  it('takes an override by exact name over the table, and 128k for a model it does not know', () => {
    expect(contextWindowOf('gpt-5', { 'gpt-5': 100_000 })).toBe(100_000);
    expect(contextWindowOf('my-local-model')).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(contextWindowOf(undefined)).toBe(128_000);
    expect(contextWindowOf('constructor')).toBe(128_000);
  });
});
