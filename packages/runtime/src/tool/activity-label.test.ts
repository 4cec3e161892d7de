import { describe, expect, it } from 'vitest';
import { activityLabel } from './activity-label.js';

describe('activityLabel', () => {
  it('keeps the first line of the trimmed text', () => {
    expect(activityLabel('\n  Summarise the notes\nthen mail them  ')).toBe('Summarise the notes');
    expect(activityLabel('\n\n')).toBe('');
  });

  it('cuts a long line to 40 characters (or maxChars) ending with an ellipsis', () => {
    const long = 'Compare every supplier quote from last quarter against the contract';
    expect(activityLabel(long)).toBe(`${long.slice(0, 39)}…`);
    expect(activityLabel(long)).toHaveLength(40);
    expect(activityLabel(long, 10)).toBe('Compare e…');
    expect(activityLabel('x'.repeat(40))).toBe('x'.repeat(40));
  });
});
