import { newQuickJSWASMModule, type QuickJSWASMModule } from 'quickjs-emscripten';
import { beforeAll, describe, expect, it } from 'vitest';
import { createResultValidator } from './result-validator.js';
import { createClosedSchemaChecker } from './closed-result-schema.js';
import { DEFAULT_WORKFLOW_LIMITS } from '@core/control-plane-client';
import { checkWorkflowScript, runWorkflowScript, type JournaledTask, type ScriptRunInput } from './workflow-sandbox.js';

const validator = createResultValidator();
const schemas = createClosedSchemaChecker(validator);
const RESULT = { type: 'object', additionalProperties: false, required: ['n'], properties: { n: { type: 'number' } } };
let module: QuickJSWASMModule;

beforeAll(async () => {
  module = await newQuickJSWASMModule();
});

function run(script: string, overrides: Partial<ScriptRunInput> = {}) {
  return runWorkflowScript(module, {
    script,
    input: null,
    seed: 42,
    startTime: Date.UTC(2026, 0, 1),
    journal: [],
    limits: { ...DEFAULT_WORKFLOW_LIMITS, cpuTimeLimitMs: 500 },
    schemas,
    ...overrides,
  });
}

function done(sequence: number, n: number, settledOrder: number, title = `t${sequence}`): JournaledTask {
  return { sequence, title, prompt: 'p', resultSchema: RESULT, status: 'succeeded', result: { n }, error: null, settledOrder, finishedAt: Date.UTC(2026, 0, 2) + settledOrder };
}

const taskCall = (title: string) => `task({ title: ${JSON.stringify(title)}, prompt: 'p', result: ${JSON.stringify(RESULT)} })`;

describe('runWorkflowScript', () => {
  it('returns JSON, reads input, logs, and creates tasks past the journal', () => {
    expect(run('log("hi", {a: 1}, 2); return { doubled: input.x * 2 };', { input: { x: 21 } })).toMatchObject({
      outcome: { kind: 'returned', result: { doubled: 42 } },
      log: ['hi {"a":1} 2'],
      newTasks: [],
      moduleBroken: false,
    });
    const waiting = run(`const a = ${taskCall('a')}; const b = ${taskCall('b')}; return [await a, await b];`);
    expect(waiting.outcome).toEqual({ kind: 'waiting' });
    expect(waiting.newTasks.map((task) => [task.sequence, task.title])).toEqual([
      [0, 'a'],
      [1, 'b'],
    ]);
  });

  it('replays the journal: finished tasks resolve (or reject, catchably) from stored outcomes, unfinished ones wait', () => {
    const failed: JournaledTask = { ...done(1, 0, 2, 'b'), status: 'failed', result: null, error: 'no sources' };
    const replay = run(`const a = await ${taskCall('a')}; let b; try { b = await ${taskCall('b')}; } catch (e) { b = e.message; } return { a: a.n, b };`, {
      journal: [done(0, 7, 1, 'a'), failed],
    });
    expect(replay.outcome).toEqual({ kind: 'returned', result: { a: 7, b: 'Task "b" failed: no sources' } });
    const partial = run(`const [a, b] = await Promise.all([${taskCall('a')}, ${taskCall('b')}]); return a.n + b.n;`, {
      journal: [done(0, 1, 1, 'a'), { ...done(1, 0, 0, 'b'), status: 'running', result: null, settledOrder: null, finishedAt: null }],
    });
    expect(partial).toMatchObject({ outcome: { kind: 'waiting' }, newTasks: [] });
  });

  it('settles journaled tasks in the order they finished, so Promise.race replays the same way', () => {
    const script = `const winner = await Promise.race([${taskCall('a')}.then(() => 'a'), ${taskCall('b')}.then(() => 'b')]); return winner;`;
    expect(run(script, { journal: [done(0, 1, 2, 'a'), done(1, 1, 1, 'b')] }).outcome).toEqual({ kind: 'returned', result: 'b' });
    expect(run(script, { journal: [done(0, 1, 1, 'a'), done(1, 1, 2, 'b')] }).outcome).toEqual({ kind: 'returned', result: 'a' });
  });

  it('makes Math.random and Date deterministic: seeded per workflow, the clock at the start then at each settled finish', () => {
    const script = `const before = [Math.random(), Date.now(), new Date().toISOString()]; await ${taskCall('a')}; return [...before, Date.now()];`;
    const first = run(script, { journal: [done(0, 1, 1, 'a')] });
    const second = run(script, { journal: [done(0, 1, 1, 'a')] });
    expect(first.outcome).toEqual(second.outcome);
    const result = (first.outcome as { result: unknown[] }).result;
    expect(result.slice(1)).toEqual([Date.UTC(2026, 0, 1), '2026-01-01T00:00:00.000Z', Date.UTC(2026, 0, 2) + 1]);
    expect(run('return Math.random()', { seed: 7 }).outcome).not.toEqual(run('return Math.random()', { seed: 8 }).outcome);
  });

  it('fails a replay that asks for a different task, or never asks for a journaled one, as non-deterministic', () => {
    const changed = run(`return await ${taskCall('b')};`, { journal: [done(0, 1, 1, 'a')] });
    expect(changed.outcome).toMatchObject({ kind: 'failed', error: expect.stringMatching(/^Non-deterministic script: task\(\) call #1 asked for "b", but the journal holds "a"/) });
    const dropped = run('return 1;', { journal: [done(0, 1, 1, 'a')] });
    expect(dropped.outcome).toMatchObject({ kind: 'failed', error: expect.stringMatching(/^Non-deterministic script: the journal holds task\(\) call #1 \("a"\)/) });
    // Catching the rejection does not hide it.
    const caught = run(`try { await ${taskCall('b')}; } catch {} return 'fine';`, { journal: [done(0, 1, 1, 'a')] });
    expect(caught.outcome).toMatchObject({ kind: 'failed', error: expect.stringMatching(/^Non-deterministic script/) });
  });

  it('rejects a task() with an open result schema catchably, naming the JSON path, before creating a task', () => {
    const outcome = run(
      `try { await task({ title: 'x', prompt: 'p', result: { type: 'object', properties: { a: { type: 'object', properties: {} } }, required: ['a'] } }); } catch (e) { return e.message; }`,
    );
    expect(outcome.newTasks).toEqual([]);
    expect(outcome.outcome).toMatchObject({ kind: 'returned', result: expect.stringMatching(/at \$: objects must set "additionalProperties": false.*at \$\.properties\.a: objects must set/) });
    expect(run(`await task({ title: '', prompt: 'p', result: ${JSON.stringify(RESULT)} })`).outcome).toMatchObject({ kind: 'failed', error: expect.stringMatching(/title must be a non-empty string/) });
  });

  it('fails the workflow with the uncaught error message', () => {
    expect(run('throw new Error("no topics given")').outcome).toEqual({ kind: 'failed', error: 'no topics given' });
    expect(run('null.x').outcome).toMatchObject({ kind: 'failed', error: expect.stringMatching(/^TypeError: /) });
    expect(run('const o = {}; o.self = o; return o;').outcome).toMatchObject({ kind: 'failed', error: expect.stringMatching(/^The script's return value is not JSON/) });
  });
});

describe('the sandbox', () => {
  it('offers no require, process, module loading, timers or other host objects', () => {
    const probe = run(`
      const names = Object.getOwnPropertyNames(globalThis);
      const viaFunction = Function('return typeof require + typeof process + typeof fetch + typeof setTimeout + typeof console')();
      const viaConstructor = (() => {}).constructor.constructor('return this')() === globalThis;
      let imported;
      try { await import('fs'); imported = 'loaded'; } catch (e) { imported = e.message; }
      return { names, viaFunction, viaConstructor, imported, require: typeof require, process: typeof process, std: typeof std, os: typeof os };
    `);
    expect(probe.outcome.kind).toBe('returned');
    const result = (probe.outcome as { result: Record<string, unknown> }).result;
    expect(result).toMatchObject({ viaFunction: 'undefinedundefinedundefinedundefinedundefined', viaConstructor: true, imported: "could not load module 'fs'", require: 'undefined', process: 'undefined', std: 'undefined', os: 'undefined' });
    const ecmaScript = new Set(['Object', 'Function', 'Array', 'Number', 'parseFloat', 'parseInt', 'Infinity', 'NaN', 'undefined', 'Boolean', 'String', 'Symbol', 'Date', 'Promise', 'RegExp', 'Error', 'AggregateError', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError', 'InternalError', 'globalThis', 'JSON', 'Math', 'ArrayBuffer', 'SharedArrayBuffer', 'Uint8Array', 'Int8Array', 'Uint16Array', 'Int16Array', 'Uint32Array', 'Int32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'Uint8ClampedArray', 'BigUint64Array', 'BigInt64Array', 'DataView', 'Map', 'BigInt', 'Set', 'WeakMap', 'WeakSet', 'Proxy', 'Reflect', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'unescape', 'eval', 'isFinite', 'isNaN', 'Iterator']);
    const extra = (result['names'] as string[]).filter((name) => !ecmaScript.has(name));
    expect(extra.sort()).toEqual(['input', 'log', 'task']);
  });

  it('cannot replace the deterministic Math.random or the workflow functions', () => {
    expect(run('"use strict"; try { Math.random = () => 1; } catch (e) { return e.name; }').outcome).toEqual({ kind: 'returned', result: 'TypeError' });
    expect(run('task = 1; log = 2; return [typeof task, typeof log];').outcome).toEqual({ kind: 'returned', result: ['function', 'function'] });
  });

  it('keeps task() and the replay working when the script replaces JSON, Promise, Map and Object methods', () => {
    const script = `JSON.stringify = () => 'garbage'; JSON.parse = () => 1; globalThis.Promise = null; Map.prototype.get = () => undefined;
      Map.prototype.set = () => {}; Object.defineProperty = () => {}; const a = await ${taskCall('a')}; return a.n;`;
    expect(run(script, { journal: [done(0, 5, 1, 'a')] }).outcome).toEqual({ kind: 'returned', result: 5 });
  });

  it('stops an endless loop at the CPU-time limit, uncatchably', () => {
    const outcome = run('try { while (true) {} } catch (e) { return "escaped"; }', { limits: { ...DEFAULT_WORKFLOW_LIMITS, cpuTimeLimitMs: 200 } });
    expect(outcome).toMatchObject({ outcome: { kind: 'failed', error: 'The script ran longer than its CPU-time limit of 200 ms in one run (an endless loop?).' }, moduleBroken: false });
    const async = run('for (;;) { await null; }', { limits: { ...DEFAULT_WORKFLOW_LIMITS, cpuTimeLimitMs: 200 } });
    expect(async.outcome).toMatchObject({ kind: 'failed', error: expect.stringMatching(/CPU-time limit/) });
  });

  it('stops a memory bomb at the memory limit', () => {
    const outcome = run(`const a = []; for (;;) a.push([${Array.from({ length: 32 }, (_, i) => i).join(', ')}]);`, {
      limits: { ...DEFAULT_WORKFLOW_LIMITS, memoryLimitBytes: 8 << 20, cpuTimeLimitMs: 5000 },
    });
    expect(outcome.outcome).toEqual({ kind: 'failed', error: 'The script ran out of memory (the limit is 8 MiB per run).' });
    expect(run('return 1').outcome).toEqual({ kind: 'returned', result: 1 });
  });

  it('stops deep recursion, in script and in native code, and keeps working', () => {
    expect(run('function f() { return f() + 1; } return f();').outcome).toEqual({ kind: 'failed', error: 'The script nested too deeply (stack overflow).' });
    expect(run('return eval("[".repeat(100000))').outcome).toMatchObject({ kind: 'failed', error: expect.stringMatching(/stack overflow/) });
    expect(run('let o = {}; let c = o; for (let i = 0; i < 100000; i++) { c.a = {}; c = c.a; } return JSON.stringify(o).length;').outcome).toMatchObject({
      kind: 'failed',
    });
    expect(run('return 2').outcome).toEqual({ kind: 'returned', result: 2 });
  });

  it('fails a workflow whose log grows past its limit, and one that asks for too many tasks', () => {
    const limits = { ...DEFAULT_WORKFLOW_LIMITS, maxLogLines: 100, maxTasksPerWorkflow: 50 };
    expect(run('for (;;) log("line");', { limits }).outcome).toEqual({ kind: 'failed', error: "The workflow's log exceeded its limit (100 lines or 65536 bytes); log less." });
    expect(run('log("x".repeat(70000))', { limits }).outcome).toMatchObject({ kind: 'failed', error: expect.stringMatching(/log exceeded its limit/) });
    const bomb = run(`try { for (let i = 0; ; i++) ${taskCall('t')}.catch(() => {}); } catch {} return 'survived';`, { limits });
    expect(bomb).toMatchObject({ outcome: { kind: 'failed', error: 'The workflow asked for more than 50 tasks, the most one workflow may create.' } });
  });
});

describe('bounded text and values', () => {
  it('cuts an error of any size to 8,000 characters, with a marker saying how much was cut', () => {
    const huge = run("throw new Error('E'.repeat(8e6))").outcome as { kind: string; error: string };
    expect(huge.kind).toBe('failed');
    expect(huge.error.length).toBeLessThanOrEqual(8000);
    expect(huge.error).toMatch(/^E{7000,} \[\.\.\. \d+ more characters cut\]$/);
    expect(Number(/(\d+) more/.exec(huge.error)![1]) + huge.error.indexOf(' [')).toBe(8e6);
  });

  it('turns any thrown or logged value into text, whatever its toString does', () => {
    expect(run("throw Symbol('odd')").outcome).toEqual({ kind: 'failed', error: 'Symbol(odd)' });
    expect(run('throw { toString() { return {}; }, toJSON() { throw 1; } }').outcome).toEqual({ kind: 'failed', error: 'a value that cannot be shown as text' });
    expect(run("const e = new Error('x'); Object.defineProperty(e, 'message', { get() { throw 1; } }); throw e;").outcome).toEqual({
      kind: 'failed',
      error: 'an error that cannot be described',
    });
    expect(run("globalThis.String = () => ({}); Array.prototype.map = null; log(Symbol('s'), 1n); throw Symbol('t');")).toMatchObject({
      outcome: { kind: 'failed', error: 'Symbol(t)' },
      log: ['Symbol(s) 1'],
    });
  });

  it('fails a return value nested deeper than 64 levels, naming where', () => {
    const deep = run('let v = 1; for (let i = 0; i < 100; i++) v = [v]; return v;').outcome;
    expect(deep).toEqual({
      kind: 'failed',
      error: `The script's return value nests deeper than 64 levels of arrays and objects (at $${'[0]'.repeat(64)}); return flatter data.`,
    });
    expect(run('let v = 1; for (let i = 0; i < 63; i++) v = { a: v }; return v;').outcome.kind).toBe('returned');
  });

  it('refuses task() arguments, titles and prompts past their bounds, catchably', () => {
    const limits = { ...DEFAULT_WORKFLOW_LIMITS, cpuTimeLimitMs: 5000 };
    const refused = (spec: string) => run(`try { await task(${spec}); } catch (e) { return e.message; }`, { limits });
    expect(refused(`{ title: 't'.repeat(201), prompt: 'p', result: ${JSON.stringify(RESULT)} }`)).toMatchObject({ outcome: { result: expect.stringMatching(/title must be .* at most 200/) }, newTasks: [] });
    expect(refused(`{ title: 't', prompt: 'p'.repeat(20001), result: ${JSON.stringify(RESULT)} }`)).toMatchObject({ outcome: { result: expect.stringMatching(/prompt must be .* at most 20000/) } });
    expect(refused(`{ title: 't', prompt: 'p', result: ${JSON.stringify(RESULT)}, padding: 'x'.repeat(600000) }`)).toMatchObject({
      outcome: { result: expect.stringMatching(/^task\(\) takes at most 524288 characters of JSON .* this call has 6\d{5}\.$/) },
    });
  });
});

describe('task() result schemas', () => {
  // The schema goes in as JSON text, so a "__proto__" key stays an own property (as from a model's JSON).
  const refusal = (schema: unknown) => {
    const text = typeof schema === 'string' ? schema : JSON.stringify(schema);
    const outcome = run(`try { await task({ title: 't', prompt: 'p', result: JSON.parse(${JSON.stringify(text)}) }); return 'accepted'; } catch (e) { return e.message; }`);
    expect(outcome.newTasks).toHaveLength(outcome.outcome.kind === 'waiting' ? 1 : 0);
    return outcome.outcome.kind === 'waiting' ? 'accepted' : (outcome.outcome as { result: string }).result;
  };
  const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', additionalProperties: false, required: Object.keys(properties), properties, ...extra });

  it('refuses a $ref that reaches outside the schema through an inherited property', () => {
    expect(refusal(object({ a: { $ref: '#/__proto__' } }))).toMatch(/at \$\.properties\.a: \$ref "#\/__proto__" does not point into this schema/);
    expect(refusal(object({ a: { $ref: '#/constructor' } }))).toMatch(/at \$\.properties\.a: \$ref "#\/constructor" does not point/);
    expect(refusal(object({ a: { $ref: '#/$defs/x' } }, { $defs: { x: { type: 'string' } } }))).toBe('accepted');
  });

  it('refuses a property named __proto__, naming its path', () => {
    const schema = JSON.parse('{"type":"object","additionalProperties":false,"required":["__proto__"],"properties":{"__proto__":{"type":"string"}}}') as unknown;
    expect(refusal(schema)).toMatch(/at \$\.properties\.__proto__: the key "__proto__" is not allowed in a result schema/);
  });

  it('refuses a schema nested 2,000 levels deep with the path where it got too deep, not a stack overflow', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 2000; i++) schema = { type: 'array', items: schema };
    const message = refusal(object({ a: schema }));
    expect(message).toMatch(/at \$\.properties\.a(\.items)+: the result schema nests deeper than 64 levels/);
    expect(message).not.toMatch(/call stack/i);
    // Deeper than this host's own JSON.stringify could go: QuickJS's stack limit or the host's nesting bound stops it.
    const deeper = `{"type":"object","additionalProperties":false,"required":["a"],"properties":{"a":${'{"type":"array","items":'.repeat(10_000)}{"type":"string"}${'}'.repeat(10_001)}}`;
    const outcome = run(`try { await task({ title: 't', prompt: 'p', result: JSON.parse(${JSON.stringify(deeper)}) }); return 'accepted'; } catch (e) { return e.message; }`).outcome;
    expect(JSON.stringify(outcome)).toMatch(/nested too deeply|nested at most 4096 levels/);
  });

  it('refuses a pattern the linear-time engine cannot run, naming its path, and takes the others', () => {
    expect(refusal(object({ a: { type: 'string', pattern: '^(a)\\1$' } }))).toMatch(/at \$\.properties\.a\.pattern: the pattern "\^\(a\)\\\\1\$" is refused: a backreference cannot be checked in linear time/);
    expect(refusal(object({ a: { type: 'string', pattern: '(?=x)' } }))).toMatch(/lookahead or lookbehind/);
    expect(refusal(object({ a: { type: 'string', pattern: '^(a+)+$' } }))).toBe('accepted');
  });
});

describe('checkWorkflowScript', () => {
  it('accepts top-level await and return, and names the line and column of a syntax error', () => {
    expect(checkWorkflowScript(module, 'const x = await task({});\nreturn x;', DEFAULT_WORKFLOW_LIMITS)).toBeUndefined();
    expect(checkWorkflowScript(module, 'const a = 1;\nlet x = ;', DEFAULT_WORKFLOW_LIMITS)).toMatch(/^SyntaxError: .*\(line 2, column \d+\)$/);
  });
});
