import { describe, expect, it } from 'vitest';
import { TurnCheck } from './turn-check.js';

describe('TurnCheck', () => {
  it('fails loudly when an output did not reach the model or a call was not executed', () => {
    const check = new TurnCheck();
    check.start(3);
    expect(() => check.outputsReceived('x', 2)).toThrow('x: the model received 2 tool outputs, expected 3');
    check.executed = 2;
    expect(() => check.finish('x')).toThrow('x: 2 tool calls executed, expected 3');
    check.executed = 3;
    expect(() => check.outputsReceived('x', 3)).not.toThrow();
    expect(() => check.finish('x')).not.toThrow();
  });

  it('hands out the same precomputed calls for a response size', () => {
    const check = new TurnCheck();
    expect(check.calls(10)).toBe(check.calls(10));
    expect(check.calls(10).map((call) => call.callId)).toEqual(Array.from({ length: 10 }, (_, index) => `call_${index}`));
  });
});
