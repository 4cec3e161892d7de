import { createAccessTokens, serveControlPlane } from '@core/control-plane-http';
import type { CliCommand } from '../cli-command.js';
import { checkPortFree, portError } from '../../control-plane/check-port-free.js';
import { CliError, EXIT_CODES } from '../cli-error.js';
import { parseCommandLine, positiveInteger, stringValue } from '../parse-command-line.js';
import { CONTROL_PLANE_OPTIONS, CONTROL_PLANE_OPTIONS_HELP, openDatabase } from '../../control-plane/control-plane-options.js';

const OPTIONS = {
  ...CONTROL_PLANE_OPTIONS,
  host: { type: 'string' },
  port: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const HELP = [
  'Usage: ankole serve [--host 127.0.0.1] [--port 7070]',
  '',
  'The control plane as an HTTP service: every control plane call as POST /v1/<api>/<method> (JSON), and',
  'GET /v1/health. Workers and commands elsewhere use it with --control-plane URL (or ANKOLE_CONTROL_PLANE_URL)',
  'and a token (ANKOLE_CONTROL_PLANE_TOKEN) made with `ankole tokens create --worker` or `--agent NAME`, so they',
  'need no database credentials. It also runs the background duties (firing schedules, recovering lost claims).',
  'People open the same address in a browser: the dashboard (jobs, workflows, approvals, schedules, Brain),',
  'signed in with such a token.',
  'SIGTERM or Ctrl-C stops it.',
  '',
  'Options:',
  '  --host ADDRESS     the address to listen on (default 127.0.0.1: this machine only)',
  '  --port N           the port (default 7070)',
  ...CONTROL_PLANE_OPTIONS_HELP.filter((line) => !line.includes('--control-plane') && !line.includes('--token')),
  '  -h, --help         show this help',
  '',
].join('\n');

/** `ankole serve`: the control plane over HTTP. */
export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'serve the control plane over HTTP for remote workers and commands (bearer tokens)',
  async run(args, io) {
    const { values } = parseCommandLine('serve', args, OPTIONS);
    if (values.help === true) {
      io.stdout.write(HELP);
      return EXIT_CODES.ok;
    }
    if (stringValue(values, 'control-plane') !== undefined) {
      throw new CliError('option_invalid', '`ankole serve` opens the database itself: give --database-url or --data-dir, not --control-plane.');
    }
    const host = stringValue(values, 'host') ?? '127.0.0.1';
    const port = positiveInteger(values, 'port', 'serve') ?? 7070;
    // A busy port is one sentence before any database is opened or created.
    await checkPortFree(host, port);
    const opened = await openDatabase(values, io, true, (error) => io.stderr.write(`ankole serve: background duty failed (retrying): ${(error as Error).message}\n`));
    try {
      const local = opened.local;
      if (local === undefined) {
        throw new CliError('database_in_use', `${opened.where} is held by another process; stop it to serve this database, or serve it from that process.`);
      }
      const tokens = createAccessTokens({ driver: local.driver, schema: local.schema });
      const server = await serveControlPlane({
        client: local.client,
        changes: local.changes,
        authenticate: (token) => (token === undefined ? undefined : tokens.verify(token)),
        host,
        port,
        dashboard: true,
        log: (line) => io.stderr.write(`${line}\n`),
      }).catch((error: unknown) => {
        throw portError(error as NodeJS.ErrnoException, host, port);
      });
      io.stdout.write(`Serving the control plane of ${opened.where} at ${server.url} (SIGTERM or Ctrl-C stops it)\n`);
      await new Promise<void>((resolve) => {
        const removeInterrupt = io.onInterrupt(() => done());
        const done = () => {
          removeInterrupt();
          process.off('SIGTERM', done);
          resolve();
        };
        process.on('SIGTERM', done);
      });
      await server.close();
      io.stdout.write('Stopped.\n');
      return EXIT_CODES.ok;
    } finally {
      await opened.controlPlane.close();
    }
  },
};
