import { describe, expect, it } from 'vitest';
import { ControlPlaneInputError } from './errors.js';
import { inputSchemas, parseInput } from './input-schemas.js';
import { findTooDeep, MAX_INPUT_DEPTH } from './json-depth.js';

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = { a: value };
  return value;
};

describe('findTooDeep', () => {
  it('finds the first container past the bound, with its path, at any depth and through a cycle', () => {
    expect(findTooDeep({ a: [1, { b: {} }] }, 4)).toBeUndefined();
    expect(findTooDeep({ a: [1, { b: {} }] }, 3)).toEqual(['a', 1, 'b']);
    expect(findTooDeep({ a: [1, { b: {} }] }, 2)).toEqual(['a', 1]);
    expect(findTooDeep(nested(1_000_000), 64)).toHaveLength(64);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(findTooDeep(cycle, 5)).toEqual(['self', 'self', 'self', 'self', 'self']);
    expect(findTooDeep('text', 0)).toBeUndefined();
  });
});

describe('parseInput', () => {
  it('refuses an input nested deeper than 64 levels with input_too_deep naming the field, in process too', () => {
    const input = { jobId: 'j', leaseToken: 'l', calls: [{ callId: 'c', toolName: 't', label: 'l' }], runState: nested(5000) };
    const error = (() => {
      try {
        parseInput(inputSchemas.hold, input, 'work.hold');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ControlPlaneInputError);
    expect(error).toMatchObject({ code: 'input_too_deep', field: `runState${'.a'.repeat(MAX_INPUT_DEPTH - 1)}`, message: expect.stringMatching(/^Invalid input to work\.hold: \$\.runState\.a\.a/) });
    expect(parseInput(inputSchemas.hold, { ...input, runState: nested(MAX_INPUT_DEPTH - 2) }, 'work.hold')).toMatchObject({ jobId: 'j' });
  });
});
