import { afterAll, describe, expect, it } from 'vitest';
import { createClosedSchemaChecker } from './closed-result-schema.js';
import { createResultValidator } from './result-validator.js';
import { createSandboxPool, type SandboxRunInput } from './sandbox-pool.js';
import { DEFAULT_WORKFLOW_LIMITS } from './workflow-limits.js';

const limits = { ...DEFAULT_WORKFLOW_LIMITS, cpuTimeLimitMs: 500 };
const pool = createSandboxPool({ threads: 2, limits });
afterAll(() => pool.close());

const input = (script: string, overrides: Partial<SandboxRunInput> = {}): SandboxRunInput => ({
  script,
  input: null,
  seed: 1,
  startTime: Date.UTC(2026, 0, 1),
  journal: [],
  limits,
  ...overrides,
});

describe('createSandboxPool', () => {
  it('runs scripts in a thread', async () => {
    const result = await pool.run(input('return 1 + 1'));
    expect(result).toMatchObject({ kind: 'ran', run: { outcome: { kind: 'returned', result: 2 } } });
  });

  it('stops a native call that never checks the interrupt', async () => {
    const started = performance.now();
    const result = await pool.run(input("const s = 'a'.repeat(8e6); return s.indexOf('a'.repeat(4e6) + 'b')"));
    console.log('native indexOf stopped after', Math.round(performance.now() - started), 'ms', result);
    expect(result).toMatchObject({ kind: 'cut' });
  });

  it('still runs after', async () => {
    expect(await pool.run(input('return new Date(0).getTimezoneOffset()'))).toMatchObject({ kind: 'ran', run: { outcome: { kind: 'returned', result: 0 } } });
  });
  it('memory', async () => {
    const started = performance.now();
    const result = await pool.run(input("const a = []; for (let i = 0; i < 320; i++) a.push(new Uint8Array(1024 * 1024)); return a.length"));
    console.log('typed arrays', Math.round(performance.now() - started), 'ms', JSON.stringify(result));
    const strings = await pool.run(input("let s = 'ab'; while (true) s = s + s; return s.length"));
    console.log('strings', JSON.stringify(strings));
  });
});
