import { randomUUID } from 'node:crypto';
import type { ControlPlaneClient } from '@core/control-plane-client';
import { CliError } from '../cli/cli-error.js';
import type { ControlPlaneChoice } from './control-plane-choice.js';

/**
 * Before a worker claims anything from an HTTP control plane: one worker call (a heartbeat of a job no one holds), so a
 * missing, unknown or agent-only token is one sentence at start rather than a refusal logged at every poll. Any other
 * answer (the job is unknown) means the token may make worker calls. Does nothing on a database.
 * @throws CliError (`token_refused`, exit 2) when the server refuses the token; the client's own errors (a URL that is
 *   not a control plane, an unreachable server) as they are.
 */
export async function checkWorkerAccess(client: Pick<ControlPlaneClient, 'work'>, choice: ControlPlaneChoice): Promise<void> {
  if (choice.kind !== 'http') return;
  try {
    await client.work.heartbeat({ jobId: randomUUID(), leaseToken: randomUUID() });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'unauthorized' || code === 'forbidden' || code === 'rate_limited') {
      const given = choice.token === undefined ? 'no token was given' : 'the token given was refused';
      throw new CliError(
        'token_refused',
        `The control plane at ${choice.url} needs a worker token and ${given}${code === 'forbidden' ? ' (it is an agent token)' : ''}: make one with \`ankole tokens create --worker\` and pass it with --token or ANKOLE_CONTROL_PLANE_TOKEN.`,
      );
    }
    // No such job: the expected answer of a worker token.
    if (code !== 'job_not_found') throw error;
  }
}
