import { createServer } from 'node:net';
import { CliError } from '../cli/cli-error.js';

/**
 * Checks that `host:port` can be listened on, by listening there a moment (before `ankole serve` opens or creates a
 * database, so a busy port costs nothing).
 * @throws CliError (`port_in_use`, exit 2) when another program listens there; (`port_refused`) when this user may not
 *   listen there or the host is not an address of this machine.
 */
export function checkPortFree(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => reject(portError(error, host, port)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** The sentence for a failure to listen on `host:port` (also when the port is taken between the check and the server). */
export function portError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  if (error.code === 'EADDRINUSE') return new CliError('port_in_use', `Port ${port} on ${host} is in use by another program: stop it, or give \`ankole serve\` another --port.`);
  if (error.code === 'EACCES') return new CliError('port_refused', `This user may not listen on port ${port} of ${host}: give \`ankole serve\` a --port above 1023.`);
  if (error.code === 'EADDRNOTAVAIL') return new CliError('port_refused', `${host} is not an address of this machine: give \`ankole serve\` a --host it has (127.0.0.1 by default).`);
  return error;
}
