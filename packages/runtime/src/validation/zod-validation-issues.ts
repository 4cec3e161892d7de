import type { z } from 'zod';
import type { ValidationIssue } from './format-validation-message.js';

type ZodIssue = z.core.$ZodIssue;

/** Zod issues as `ValidationIssue`s: types as "expected X" (the formatter adds what was received), unions folded. */
export function zodValidationIssues(issues: readonly ZodIssue[]): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
    switch (issue.code) {
      case 'invalid_type':
        out.push({ path, message: `expected ${issue.expected}`, showReceived: true });
        break;
      case 'unrecognized_keys':
        for (const key of issue.keys) out.push({ path: [...path, key], message: 'unknown property (not allowed by the schema)' });
        break;
      case 'invalid_union': {
        const expected = issue.errors.map((branch) =>
          branch.length === 1 && branch[0]?.code === 'invalid_type' && branch[0].path.length === 0 ? branch[0].expected : undefined,
        );
        if (expected.length > 0 && expected.every((entry) => entry !== undefined)) {
          out.push({ path, message: `expected ${[...new Set(expected)].join(' or ')}`, showReceived: true });
        } else {
          out.push({ path, message: 'does not match any of the allowed shapes', showReceived: true });
        }
        break;
      }
      default:
        out.push({ path, message: issue.message, showReceived: true });
    }
  }
  return out;
}
