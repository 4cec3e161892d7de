import { describe, expect, it } from 'vitest';
import { ControlPlaneFailure, ControlPlaneNotFoundError } from './errors.js';
import { refusalToolResult } from './refusal-tool-result.js';

describe('refusalToolResult', () => {
  it('turns a refusal into an error output naming the action, with the code', () => {
    expect(refusalToolResult(new ControlPlaneNotFoundError('job', 'j-1'), 'cancel the background job')).toStrictEqual({
      content: 'Could not cancel the background job: No job with id "j-1" exists for this agent. List your jobs to see the ids you can use.',
      details: { code: 'job_not_found' },
      isError: true,
    });
  });

  it('rethrows anything else', () => {
    const failure = new ControlPlaneFailure('database_unreachable', 'The database is down.');
    expect(() => refusalToolResult(failure, 'save the page')).toThrow(failure);
    expect(() => refusalToolResult(new TypeError('boom'), 'save the page')).toThrow('boom');
  });
});
