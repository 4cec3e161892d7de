import { AnkoleError, type AgentToolResult } from '@core/runtime';

/**
 * Turns a control-plane refusal (invalid input, unknown page, title taken) into an error output the model can
 * act on. Anything else (the database down) is rethrown for the loop to report.
 */
export function toolErrorResult(error: unknown, action: string): AgentToolResult<{ code: string }> {
  if (error instanceof AnkoleError && error.kind === 'usage') {
    return { content: `Could not ${action}: ${error.message}`, details: { code: error.code }, isError: true };
  }
  throw error;
}
