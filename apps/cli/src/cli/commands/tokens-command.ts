import { createAccessTokens, type AccessTokens } from '@core/control-plane-http';
import { localTokens } from '../../control-plane/local-socket.js';
import { describeTime } from '../../render/relative-time.js';
import type { CliCommand } from '../cli-command.js';
import { CliError, EXIT_CODES } from '../cli-error.js';
import { resolveIdPrefix } from '../id-prefix.js';
import { parseCommandLine, stringValue } from '../parse-command-line.js';
import { agentOption, CONTROL_PLANE_OPTIONS, CONTROL_PLANE_OPTIONS_HELP, formatTable, openDatabase } from '../../control-plane/control-plane-options.js';

const OPTIONS = {
  ...CONTROL_PLANE_OPTIONS,
  worker: { type: 'boolean' },
  agent: { type: 'string' },
  label: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const HELP = [
  'Usage: ankole tokens create --worker | --agent NAME [--label TEXT]   make a bearer token for `ankole serve`',
  '       ankole tokens list                                            the tokens (never the tokens themselves)',
  '       ankole tokens revoke <id>                                     revoke one',
  '',
  'A worker token claims and finishes work and makes the calls of the turns it runs; an agent token reaches only',
  "that agent's schedules, jobs, workflows and Brain. The token is printed once; only its SHA-256 hash is stored.",
  'These commands open the database itself, or, on an embedded folder held by `ankole serve` or a worker, go',
  'through that process\'s local socket (never through --control-plane).',
  '',
  'Options:',
  '  --worker           a worker token',
  '  --agent NAME       an agent token for NAME',
  '  --label TEXT       a note shown by `tokens list`',
  '  --json             print JSON',
  ...CONTROL_PLANE_OPTIONS_HELP.filter((line) => !line.includes('--control-plane') && !line.includes('--token')),
  '  -h, --help         show this help',
  '',
].join('\n');

/** `ankole tokens`: create, list and revoke the HTTP control plane's bearer tokens. */
export const tokensCommand: CliCommand = {
  name: 'tokens',
  summary: 'create, list or revoke bearer tokens for `ankole serve`',
  async run(args, io) {
    const { values, positionals } = parseCommandLine('tokens', args, OPTIONS);
    if (values.help === true) {
      io.stdout.write(HELP);
      return EXIT_CODES.ok;
    }
    const [action = 'list', ...rest] = positionals;
    if (!['create', 'list', 'revoke'].includes(action)) throw new CliError('action_unknown', `Unknown action "${action}" for \`ankole tokens\`: use create, list or revoke.`);
    const worker = values.worker === true;
    const agent = stringValue(values, 'agent') === undefined ? undefined : agentOption(values);
    if (action === 'create' && worker === (agent !== undefined)) throw new CliError('arguments_invalid', 'Give one of --worker or --agent NAME: ankole tokens create --worker.');
    if (action === 'revoke' && rest.length !== 1) throw new CliError('arguments_invalid', 'Give one token id: ankole tokens revoke <id>.');
    const opened = await openDatabase(values, io, false);
    try {
      const local = opened.local;
      const socketPath = opened.socketPath;
      // Held by `ankole serve` or a worker: manage the tokens through that process's local socket.
      const tokens: Pick<AccessTokens, 'create' | 'list' | 'revoke'> =
        local !== undefined
          ? createAccessTokens({ driver: local.driver, schema: local.schema })
          : socketPath !== undefined
            ? {
                create: (input) => localTokens(socketPath, 'create', input),
                list: () => localTokens(socketPath, 'list', {}),
                revoke: (id) => localTokens(socketPath, 'revoke', { id }),
              }
            : failNoDatabase(opened.where);
      const json = values.json === true;
      if (action === 'create') {
        const made = await tokens.create({ kind: worker ? 'worker' : 'agent', agentId: agent, label: stringValue(values, 'label') });
        io.stdout.write(json ? `${JSON.stringify(made)}\n` : `${made.token}\n`);
        if (!json) io.stderr.write(`Token ${made.record.id} (${made.record.kind}${agent === undefined ? '' : ` for agent ${agent}`}): shown once, keep it secret.\n`);
      } else if (action === 'list') {
        const records = await tokens.list();
        io.stdout.write(
          json
            ? `${JSON.stringify(records)}\n`
            : `${formatTable(['ID', 'KIND', 'AGENT', 'LABEL', 'CREATED', 'REVOKED'], records.map((r) => [r.id, r.kind, r.agentId ?? '-', r.label, describeTime(r.createdAt), r.revokedAt === null ? '-' : describeTime(r.revokedAt)]))}\n`,
        );
      } else {
        const id = await resolveIdPrefix({ given: rest[0]!, kind: 'token', candidates: async () => (await tokens.list()).filter((token) => token.revokedAt === null).map((token) => token.id) });
        const revoked = await tokens.revoke(id);
        if (!revoked) throw new CliError('token_not_found', `No active token with id "${id}".`);
        io.stdout.write(`Token ${id} is revoked.\n`);
      }
      return EXIT_CODES.ok;
    } finally {
      await opened.controlPlane.close();
    }
  },
};

function failNoDatabase(where: string): never {
  throw new CliError('database_in_use', `${where}: tokens are managed on the database itself; stop the process holding it, or use a PostgreSQL server.`);
}
