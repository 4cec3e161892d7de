import { describe, expect, it } from 'vitest';
import { describeTime, relativeTime } from './relative-time.js';

describe('times for people', () => {
  const now = new Date('2026-12-01T09:00:00Z');

  it('says how far a moment is, in the past or the future', () => {
    expect(relativeTime(new Date('2026-12-01T09:00:20Z'), now)).toBe('just now');
    expect(relativeTime(new Date('2026-12-01T09:03:00Z'), now)).toBe('in 3 min');
    expect(relativeTime(new Date('2026-12-01T07:00:00Z'), now)).toBe('2 h ago');
    expect(relativeTime(new Date('2026-12-02T09:00:00Z'), now)).toBe('in 1 day');
    expect(relativeTime(new Date('2026-11-26T09:00:00Z'), now)).toBe('5 days ago');
  });

  it('shows a Paris schedule in Paris time and a UTC one in UTC', () => {
    expect(describeTime('2026-12-01T09:03:00Z', { timeZone: 'Europe/Paris', now })).toBe('2026-12-01 10:03 GMT+1 (in 3 min)');
    expect(describeTime('2026-12-01T07:00:00Z', { timeZone: 'UTC', now })).toBe('2026-12-01 07:00 UTC (2 h ago)');
  });
});
