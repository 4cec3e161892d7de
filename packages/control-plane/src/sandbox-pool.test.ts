import { afterAll, describe, expect, it } from 'vitest';
import { createSandboxPool, type SandboxRunInput, type SandboxRunResult } from './sandbox-pool.js';
import { DEFAULT_WORKFLOW_LIMITS } from '@core/control-plane-client';

// A host far from UTC: the sandbox must not see it. (Set before any thread starts; Node applies it at once.)
process.env.TZ = 'Asia/Kolkata';

const limits = { ...DEFAULT_WORKFLOW_LIMITS, cpuTimeLimitMs: 500 };
// The wall-clock backstop far away: on a loaded test machine a CPU cut must not turn into a `busy` one.
const pool = createSandboxPool({ threads: 2, limits, wallLimitMs: 120_000 });
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

/** The error a run failed with, whether the script's own check or the pool's cut stopped it. */
function failure(result: SandboxRunResult): string {
  if (result.kind === 'ran') return result.run.outcome.kind === 'failed' ? result.run.outcome.error : `not failed: ${JSON.stringify(result.run.outcome)}`;
  return `${result.kind}: ${result.error}`;
}

/** Runs a hostile script while counting how often this thread's event loop turned, and how long it took at most. */
async function whileResponsive(script: string): Promise<{ result: SandboxRunResult; turns: number; worstGapMs: number; elapsedMs: number }> {
  const started = performance.now();
  let turns = 0;
  let last = started;
  let worstGapMs = 0;
  let running = true;
  const tick = (): void => {
    const now = performance.now();
    worstGapMs = Math.max(worstGapMs, now - last);
    last = now;
    turns += 1;
    if (running) setTimeout(tick, 5);
  };
  setTimeout(tick, 5);
  const result = await pool.run(input(script));
  running = false;
  return { result, turns, worstGapMs, elapsedMs: performance.now() - started };
}

const CPU_LIMIT = /CPU-time limit of 500 ms/;

describe('createSandboxPool', () => {
  it('runs a script in a thread and answers with what it did', async () => {
    expect(await pool.run(input('log("hi"); return input.n + 1', { input: { n: 1 } }))).toEqual({
      kind: 'ran',
      run: { outcome: { kind: 'returned', result: 2 }, newTasks: [], log: ['hi'], moduleBroken: false },
    });
  });

  it('stops a native call that never checks the interrupt (indexOf over 8 MB), while this thread stays responsive', async () => {
    const { result, turns, worstGapMs, elapsedMs } = await whileResponsive("const s = 'a'.repeat(8e6); return s.indexOf('a'.repeat(4e6) + 'b');");
    console.log(`native indexOf stopped after ${Math.round(elapsedMs)} ms; this thread turned ${turns} times meanwhile, worst gap ${Math.round(worstGapMs)} ms`);
    expect(result).toMatchObject({ kind: 'cut', error: expect.stringMatching(CPU_LIMIT) });
    expect(turns).toBeGreaterThan(0);
  });

  it('stops a loop of short native calls, and a plain endless loop, at the CPU-time limit', async () => {
    const loop = await whileResponsive("const s = 'a'.repeat(2e5); const needle = 'a'.repeat(1e5) + 'b'; let n = 0; for (;;) n += s.indexOf(needle);");
    expect(failure(loop.result)).toMatch(CPU_LIMIT);
    expect(loop.turns).toBeGreaterThan(0);
    expect(failure(await pool.run(input('try { while (true) {} } catch (e) { return "escaped"; }')))).toMatch(CPU_LIMIT);
    expect(failure(await pool.run(input('for (;;) { await null; }')))).toMatch(CPU_LIMIT);
  });

  it('runs the next script normally after a thread was stopped', async () => {
    await pool.run(input("const s = 'a'.repeat(8e6); return s.indexOf('a'.repeat(4e6) + 'b');"));
    expect(await pool.run(input('return 40 + 2'))).toMatchObject({ kind: 'ran', run: { outcome: { kind: 'returned', result: 42 } } });
  });

  it('counts every allocation against the memory cap: many small typed arrays, strings and objects', async () => {
    const memory = /out of memory|string too long/;
    expect(failure(await pool.run(input('const a = []; for (let i = 0; i < 320; i++) a.push(new Uint8Array(1024 * 1024)); return a.length;')))).toMatch(memory);
    expect(failure(await pool.run(input("const a = []; for (let i = 0; i < 1e5; i++) a.push('x'.repeat(16 * 1024) + i); return a.length;")))).toMatch(memory);
    expect(failure(await pool.run(input("return 'a'.repeat(2 ** 29).length;")))).toMatch(memory);
    expect(failure(await pool.run(input("let s = 'ab'; for (let i = 0; i < 40; i++) s = (s + s).slice(1); return s.length;")))).toMatch(memory);
    expect(await pool.run(input('return 1'))).toMatchObject({ kind: 'ran', run: { outcome: { kind: 'returned', result: 1 } } });
  });

  it('runs the sandbox in UTC, whatever the host time zone, and without Intl', async () => {
    expect(new Date(0).getTimezoneOffset()).toBe(-330);
    const script = 'const d = new Date(2026, 0, 1, 12, 30); return [new Date(0).getTimezoneOffset(), d.getHours(), d.toISOString(), new Date("2026-01-01T00:00").getTime(), typeof Intl];';
    expect(await pool.run(input(script))).toMatchObject({
      kind: 'ran',
      run: { outcome: { kind: 'returned', result: [0, 12, '2026-01-01T12:30:00.000Z', Date.UTC(2026, 0, 1), 'undefined'] } },
    });
  });

  it('checks a result against a catastrophic pattern in linear time: the right answer for a long string', async () => {
    const schema = { type: 'object', additionalProperties: false, required: ['s'], properties: { s: { type: 'string', pattern: '^(a+)+$' } } };
    expect(await pool.validate(schema, { s: `${'a'.repeat(100_000)}!` })).toEqual([{ path: '$.s', message: 'must match pattern "^(a+)+$"' }]);
    expect(await pool.validate(schema, { s: 'a'.repeat(100_000) })).toEqual([]);
  });

  it('checks scripts for syntax errors in a thread', async () => {
    expect(await pool.check('return 1', limits)).toBeUndefined();
    expect(await pool.check('let x = ;', limits)).toMatch(/^SyntaxError: .*\(line 1, column \d+\)$/);
  });
});

describe('sandbox threads', () => {
  it('retire once their memory grew, so the memory goes back to the system', async () => {
    const single = createSandboxPool({ threads: 1, limits, wallLimitMs: 120_000 });
    try {
      expect(await single.run(input('return 1'))).toMatchObject({ kind: 'ran' });
      expect(single.threadCount).toBe(1);
      expect(await single.run(input('const a = []; for (let i = 0; i < 20; i++) a.push(new Uint8Array(1024 * 1024)); return a.length;'))).toMatchObject({
        kind: 'ran',
        run: { outcome: { kind: 'returned', result: 20 } },
      });
      expect(single.threadCount).toBe(0);
      expect(await single.run(input('return 2'))).toMatchObject({ kind: 'ran', run: { outcome: { kind: 'returned', result: 2 } } });
    } finally {
      await single.close();
    }
  });

  it('retire after their number of jobs', async () => {
    const single = createSandboxPool({ threads: 1, limits, retireAfterJobs: 2 });
    try {
      await single.run(input('return 1'));
      expect(single.threadCount).toBe(1);
      await single.run(input('return 1'));
      expect(single.threadCount).toBe(0);
    } finally {
      await single.close();
    }
  });

  it('end a run the machine gives no CPU time in time as busy (the wall-clock backstop), not as a CPU overrun', async () => {
    const hurried = createSandboxPool({ threads: 1, limits, wallLimitMs: 1 });
    try {
      expect(await hurried.run(input('while (true) {}'))).toMatchObject({ kind: 'busy', error: expect.stringMatching(/wall-clock time with \d+ ms of CPU time used \(the machine is too busy/) });
    } finally {
      await hurried.close();
    }
  });

  it('end queued and running jobs when the pool closes, as an error (nothing is stored)', async () => {
    const closing = createSandboxPool({ threads: 1, limits, wallLimitMs: 120_000 });
    const running = closing.run(input('while (true) {}')).catch((error: unknown) => error);
    const queued = closing.run(input('return 1')).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await closing.close();
    expect(await running).toMatchObject({ code: 'sandbox_closed' });
    expect(await queued).toMatchObject({ code: 'sandbox_closed' });
    await expect(closing.run(input('return 1'))).rejects.toMatchObject({ code: 'sandbox_closed' });
    expect(closing.threadCount).toBe(0);
  });
});
