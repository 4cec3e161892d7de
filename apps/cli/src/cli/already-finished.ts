import { CliError, EXIT_CODES } from './cli-error.js';

/** What a finished record's status reads as after "had already": `been cancelled`, `succeeded`. */
function hadAlready(status: string): string {
  if (status === 'cancelled' || status === 'approved' || status === 'denied') return `been ${status}`;
  if (status === 'completed') return 'completed (its one run is done)';
  return status;
}

/**
 * The one error of every command asked to cancel, approve or deny something that had already finished: exit code 1
 * (nothing was done, though the id was right) and the same sentence, e.g. `Job 0c7… had already succeeded: there was
 * nothing to cancel.`
 */
export function alreadyFinished(options: { kind: 'Job' | 'Schedule' | 'Workflow' | 'Approval'; id: string; status: string; action: 'cancel' | 'approve' | 'deny' }): CliError {
  return new CliError(`${options.kind.toLowerCase()}_finished`, `${options.kind} ${options.id} had already ${hadAlready(options.status)}: there was nothing to ${options.action}.`, {
    exitCode: EXIT_CODES.failure,
  });
}
