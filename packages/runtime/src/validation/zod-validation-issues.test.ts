import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodValidationIssues } from './zod-validation-issues.js';

describe('zodValidationIssues', () => {
  it('turns Zod issues into path + expectation, folding type-only unions and splitting unknown keys', () => {
    const schema = z.strictObject({
      a: z.string(),
      b: z.union([z.string(), z.null()]),
      c: z.number().max(3),
      d: z.union([z.object({ x: z.string() }), z.number()]),
    });
    const result = schema.safeParse({ a: 1, b: 2, c: 9, d: { x: 1 }, e: 1, f: 2 });
    expect(result.success).toBe(false);
    expect(zodValidationIssues(result.error?.issues ?? [])).toEqual([
      { path: ['a'], message: 'expected string', showReceived: true },
      { path: ['b'], message: 'expected string or null', showReceived: true },
      { path: ['c'], message: 'Too big: expected number to be <=3', showReceived: true },
      { path: ['d'], message: 'does not match any of the allowed shapes', showReceived: true },
      { path: ['e'], message: 'unknown property (not allowed by the schema)' },
      { path: ['f'], message: 'unknown property (not allowed by the schema)' },
    ]);
  });
});
