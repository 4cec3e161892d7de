import { describe, expect, it } from 'vitest';
import { RuntimeFailure, UsageError } from '../errors.js';
import { refusalToolResult } from './refusal-tool-result.js';

describe('refusalToolResult', () => {
  it('turns a usage error into an error output naming the action, with the code', () => {
    const refusal = new UsageError('job_not_found', 'No job with id "j-1" exists for this agent.');
    expect(refusalToolResult(refusal, 'cancel the background job')).toStrictEqual({
      content: 'Could not cancel the background job: No job with id "j-1" exists for this agent.',
      details: { code: 'job_not_found' },
      isError: true,
    });
  });

  it('rethrows anything else', () => {
    const failure = new RuntimeFailure('database_unreachable', 'The database is down.');
    expect(() => refusalToolResult(failure, 'save the page')).toThrow(failure);
    expect(() => refusalToolResult(new TypeError('boom'), 'save the page')).toThrow('boom');
  });
});
