import { describe, expect, it } from 'vitest';
import { describeThrown } from './describe-thrown.js';

describe('describeThrown', () => {
  it('gives the message of an error (not its stack), a string as it is, and the JSON of other values', () => {
    expect(describeThrown(new TypeError('the disk is full'))).toBe('the disk is full');
    expect(describeThrown(new RangeError(''))).toBe('RangeError');
    expect(describeThrown('plain text')).toBe('plain text');
    expect(describeThrown({ code: 7 })).toBe('{"code":7}');
    expect(describeThrown(undefined)).toBe('undefined');
    expect(describeThrown(10n)).toBe('10');
  });

  it('never throws, whatever was thrown', () => {
    const throwingMessage = new Error('x');
    Object.defineProperty(throwingMessage, 'message', {
      get() {
        throw new Error('getter');
      },
    });
    const unprintable = {
      toJSON: () => {
        throw new Error('json');
      },
      toString: () => {
        throw new Error('string');
      },
    };
    expect(describeThrown(Object.create(null))).toBe('{}');
    expect(describeThrown(throwingMessage)).toBe('Error');
    expect(describeThrown(unprintable)).toBe('an unreadable value was thrown');
  });
});
