/**
 * The JavaScript the sandbox evaluates before a workflow script (in QuickJS, never in Node). It receives the host
 * functions and the run's constants, installs `input`, `task()` and `log()` as read-only globals, makes `Math.random`
 * (seeded per workflow) and `Date` (the workflow clock) deterministic, removes the garbage-collector observers
 * (`WeakRef`, `FinalizationRegistry`), and returns the functions the host calls: `settle` (resolve or reject a
 * journaled task, advancing the clock to its finish time), `toJson` (the script's return value as JSON) and
 * `describe` (an uncaught error as text).
 */
export const WORKFLOW_SCRIPT_PRELUDE = String.raw`(function (hostTask, hostLog, seed, startTime, inputJson) {
  'use strict';
  const settlers = new Map();
  let clock = startTime;
  let state = seed >>> 0;
  function random() {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  Object.defineProperty(Math, 'random', { value: random, writable: false, configurable: false, enumerable: false });
  const RealDate = Date;
  function DeterministicDate(...args) {
    if (new.target === undefined) return new RealDate(clock).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [clock] : args, new.target);
  }
  DeterministicDate.prototype = RealDate.prototype;
  DeterministicDate.now = function now() { return clock; };
  DeterministicDate.parse = RealDate.parse;
  DeterministicDate.UTC = RealDate.UTC;
  Object.defineProperty(RealDate.prototype, 'constructor', { value: DeterministicDate, writable: true, configurable: true, enumerable: false });
  globalThis.Date = DeterministicDate;
  delete globalThis.WeakRef;
  delete globalThis.FinalizationRegistry;

  function describe(error) {
    try {
      if (error instanceof Error) {
        const name = String(error.name);
        return name === 'Error' || name === '' ? String(error.message) : name + ': ' + String(error.message);
      }
      return typeof error === 'string' ? error : String(JSON.stringify(error) ?? error);
    } catch (problem) {
      return 'an error that cannot be described';
    }
  }
  function text(part) {
    if (typeof part === 'string') return part;
    try {
      const json = JSON.stringify(part);
      return json === undefined ? String(part) : json;
    } catch (problem) {
      return String(part);
    }
  }
  function task(spec) {
    let json;
    try {
      json = JSON.stringify(spec);
    } catch (problem) {
      return Promise.reject(new TypeError('task() takes { title, prompt, result } as plain JSON: ' + describe(problem)));
    }
    const reply = JSON.parse(hostTask(json === undefined ? 'null' : json));
    if (reply.error !== undefined) return Promise.reject(new TypeError(reply.error));
    return new Promise((resolve, reject) => {
      settlers.set(reply.sequence, { resolve, reject });
    });
  }
  function log(...parts) {
    hostLog(parts.map(text).join(' '));
  }
  function settle(sequence, ok, payload, finishedAt) {
    const settler = settlers.get(sequence);
    settlers.delete(sequence);
    if (finishedAt > clock) clock = finishedAt;
    if (ok) settler.resolve(JSON.parse(payload));
    else settler.reject(new Error(payload));
  }
  function toJson(value) {
    const json = JSON.stringify(value);
    return json === undefined ? 'null' : json;
  }
  const constant = (value) => ({ value, writable: false, enumerable: false, configurable: false });
  Object.defineProperty(globalThis, 'input', constant(JSON.parse(inputJson)));
  Object.defineProperty(globalThis, 'task', constant(task));
  Object.defineProperty(globalThis, 'log', constant(log));
  return { settle, toJson, describe };
})`;

/** The script as the body of an async function (top-level `await` and `return`), on the script's own first line. */
export function wrapWorkflowScript(script: string): string {
  return `(async () => {${script}\n})()`;
}
