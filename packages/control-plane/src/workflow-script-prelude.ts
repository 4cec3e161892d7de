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
  // The script may replace globals; the prelude keeps its own copies.
  const { stringify, parse } = JSON;
  const { defineProperty } = Object;
  const LocalPromise = Promise;
  const LocalError = Error;
  const LocalTypeError = TypeError;
  const LocalString = String;
  const settlers = new Map();
  const settlerGet = settlers.get.bind(settlers);
  const settlerSet = settlers.set.bind(settlers);
  const settlerDelete = settlers.delete.bind(settlers);
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

  // Always a string, whatever the value (a getter that throws, a toString that returns an object, a Symbol).
  function asText(value) {
    try {
      const text = LocalString(value);
      return typeof text === 'string' ? text : 'a value that cannot be shown as text';
    } catch (problem) {
      return 'a value that cannot be shown as text';
    }
  }
  function describe(error) {
    try {
      if (error instanceof LocalError) {
        const name = asText(error.name);
        const message = asText(error.message);
        return name === 'Error' || name === '' ? message : name + ': ' + message;
      }
    } catch (problem) {
      return 'an error that cannot be described';
    }
    return text(error);
  }
  function text(part) {
    if (typeof part === 'string') return part;
    try {
      const json = stringify(part);
      return typeof json === 'string' ? json : asText(part);
    } catch (problem) {
      return asText(part);
    }
  }
  function task(spec) {
    let json;
    try {
      json = stringify(spec);
    } catch (problem) {
      return LocalPromise.reject(new LocalTypeError('task() takes { title, prompt, result } as plain JSON: ' + describe(problem)));
    }
    const reply = parse(hostTask(json === undefined ? 'null' : json));
    if (reply.error !== undefined) return LocalPromise.reject(new LocalTypeError(reply.error));
    return new LocalPromise((resolve, reject) => {
      settlerSet(reply.sequence, { resolve, reject });
    });
  }
  function log(...parts) {
    let line = '';
    for (let index = 0; index < parts.length; index += 1) line += (index === 0 ? '' : ' ') + text(parts[index]);
    hostLog(line);
  }
  function settle(sequence, ok, payload, finishedAt) {
    const settler = settlerGet(sequence);
    settlerDelete(sequence);
    if (finishedAt > clock) clock = finishedAt;
    if (ok) settler.resolve(parse(payload));
    else settler.reject(new LocalError(payload));
  }
  function toJson(value) {
    const json = stringify(value);
    return json === undefined ? 'null' : json;
  }
  const constant = (value) => ({ value, writable: false, enumerable: false, configurable: false });
  defineProperty(globalThis, 'input', constant(parse(inputJson)));
  defineProperty(globalThis, 'task', constant(task));
  defineProperty(globalThis, 'log', constant(log));
  return { settle, toJson, describe };
})`;

/** The script as the body of an async function (top-level `await` and `return`), on the script's own first line. */
export function wrapWorkflowScript(script: string): string {
  return `(async () => {${script}\n})()`;
}
