import { AnkoleError } from '../errors.js';
import type { AgentToolResult } from './worker-agent-tool.js';

/**
 * For tool authors whose tools call a service that refuses bad requests with usage errors (the control plane: an
 * invalid input, an unknown id, a title taken, a limit reached): turns such a refusal into an error output the model
 * can act on, `Could not <action>: <message>`, with the error's code in `details`. Anything else (a runtime failure,
 * the database down, a bug) is rethrown for the loop to report.
 *
 * ```ts
 * try {
 *   return { content: formatJob(await client.jobs.cancel({ agentId, jobId })) };
 * } catch (error) {
 *   return refusalToolResult(error, 'cancel the background job');
 * }
 * ```
 */
export function refusalToolResult(error: unknown, action: string): AgentToolResult<{ code: string }> {
  if (error instanceof AnkoleError && error.kind === 'usage') {
    return { content: `Could not ${action}: ${error.message}`, details: { code: error.code }, isError: true };
  }
  throw error;
}
