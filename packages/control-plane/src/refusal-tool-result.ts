import { AnkoleError, type AgentToolResult } from '@core/runtime';

/**
 * For agent tools over the control plane: turns a control-plane refusal (a usage error: invalid input, unknown id,
 * title taken, limit reached) into an error output the model can act on, `Could not <action>: <message>` with the
 * error's code. Anything else (the database down) is rethrown for the loop to report.
 */
export function refusalToolResult(error: unknown, action: string): AgentToolResult<{ code: string }> {
  if (error instanceof AnkoleError && error.kind === 'usage') {
    return { content: `Could not ${action}: ${error.message}`, details: { code: error.code }, isError: true };
  }
  throw error;
}
