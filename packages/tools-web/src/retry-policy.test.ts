import { describe, expect, test } from 'vitest';
import { parseRetryAfter, resolveRetryOptions, retryDelay } from './retry-policy.js';

describe('parseRetryAfter', () => {
  test('reads delta seconds and HTTP dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0.5')).toBe(500);
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:30 GMT', now)).toBe(30_000);
  });
  test('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

describe('retryDelay', () => {
  test('doubles per attempt within the jitter band and stops at the cap', () => {
    const options = resolveRetryOptions({ baseDelayMs: 100, maxDelayMs: 350, random: () => 0.999 });
    expect(retryDelay(1, undefined, options)).toBe(100);
    expect(retryDelay(2, undefined, options)).toBe(200);
    expect(retryDelay(3, undefined, options)).toBe(350);
    const low = resolveRetryOptions({ baseDelayMs: 100, random: () => 0 });
    expect(retryDelay(2, undefined, low)).toBe(100);
  });
  test('uses Retry-After when the server gives one', () => {
    expect(retryDelay(1, 1500, resolveRetryOptions({ random: () => 0 }))).toBe(1500);
  });
});
