import { collectToolSchemas, toolKey, type AnyWorkerAgentTool } from '@core/runtime';
import { DEFAULT_COMPUTER_LIMITS } from '@core/tools-computer';
import { buildTurnTools } from '@core/worker';
import { describeCommandLimits, describeSandboxStatus } from '../command-sandbox-setup.js';
import { formatCount } from '../../render/format.js';
import { applyAnkoleConfig } from '../apply-config.js';
import type { CliCommand } from '../cli-command.js';
import { EXIT_CODES } from '../cli-error.js';
import type { CliIO } from '../cli-io.js';
import { parseCommandLine, type ParsedCommandLine } from '../parse-command-line.js';
import { CONFIG_FILES_HELP, resolveTurnSetup, TURN_OPTIONS, TURN_OPTIONS_HELP, type TurnSetup } from '../turn-setup.js';

const OPTIONS = {
  ...TURN_OPTIONS,
  schemas: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const HELP = [
  'Usage: ankole tools [options]',
  '',
  'Shows the tool set a turn would get with this configuration, in assembly order.',
  '',
  'Options:',
  ...TURN_OPTIONS_HELP,
  '  --schemas          print the exact Responses `tools` payload and its size in bytes',
  '  --json             print the list (or the payload) as JSON',
  '  -h, --help         show this help',
  '',
  ...CONFIG_FILES_HELP,
  '',
].join('\n');

/** One row of `ankole tools`. */
interface ToolRow {
  name: string;
  namespace: string | null;
  mode: string;
  readOnly: boolean;
  destructive: boolean;
  deferred: boolean;
}

function row(tool: AnyWorkerAgentTool): ToolRow {
  return {
    name: toolKey(tool),
    namespace: tool.namespace ?? null,
    mode: tool.executionMode,
    readOnly: tool.isReadOnly,
    destructive: tool.isDestructive,
    deferred: tool.deferLoading,
  };
}

function table(rows: ToolRow[]): string {
  const header = ['NAME', 'NAMESPACE', 'MODE', 'ACCESS', 'DEFERRED'];
  const cells = rows.map((entry) => [
    entry.name,
    entry.namespace ?? '-',
    entry.mode,
    entry.readOnly ? 'read-only' : entry.destructive ? 'destructive' : 'writes',
    entry.deferred ? 'yes' : 'no',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((cell) => cell[column]?.length ?? 0)));
  return [header, ...cells].map((cell) => cell.map((text, column) => text.padEnd(widths[column] ?? 0)).join('  ').trimEnd()).join('\n');
}

/** `ankole tools`: the tool set a turn would get, or with `--schemas` the Responses `tools` payload and its size. */
export const toolsCommand: CliCommand = {
  name: 'tools',
  summary: 'show the tool set a turn would get (--schemas: the Responses tools payload and its size)',
  async run(args, cliIO) {
    const parsed = parseCommandLine('tools', args, OPTIONS);
    if (parsed.values.help === true) {
      cliIO.stdout.write(HELP);
      return EXIT_CODES.ok;
    }
    // The config files under the flags and the environment, as for `ankole run`.
    const { values, io } = await applyAnkoleConfig(parsed.values, cliIO, { perAgent: true, flags: Object.keys(OPTIONS) });
    const setup = await resolveTurnSetup(values, io, new AbortController().signal);
    try {
      for (const warning of setup.warnings) io.stderr.write(`ankole: ${warning}\n`);
      return await show(values, io, setup);
    } finally {
      await setup.close();
    }
  },
};

async function show(values: ParsedCommandLine['values'], io: CliIO, setup: TurnSetup): Promise<number> {
  const { context } = setup;
  const assembly = await buildTurnTools(context);
  for (const warning of assembly.warnings) io.stderr.write(`ankole: ${warning}\n`);
  if (values.schemas === true) {
    const payload = collectToolSchemas(assembly.tools);
    const bytes = Buffer.byteLength(JSON.stringify(payload));
    if (values.json === true) io.stdout.write(`${JSON.stringify({ bytes, tools: payload })}\n`);
    else {
      io.stdout.write(`${JSON.stringify(payload, null, 2)}\n`);
      io.stderr.write(`Responses tools payload: ${formatCount(bytes)} bytes as sent (compact JSON), ${payload.length} entries.\n`);
    }
    return EXIT_CODES.ok;
  }
  const rows = assembly.tools.map(row);
  const { sandbox, allowHosts } = setup.commands;
  const status = sandbox === 'unsandboxed' ? 'unsandboxed' : await sandbox.status();
  const limits = { ...DEFAULT_COMPUTER_LIMITS, ...context.computerLimits };
  if (values.json === true) {
    const commands = { sandbox: status === 'unsandboxed' ? { available: false, unsandboxed: true } : status, allowHosts, limits };
    io.stdout.write(`${JSON.stringify({ tools: rows, instructions: assembly.instructions, commands })}\n`);
    return EXIT_CODES.ok;
  }
  io.stdout.write(`${table(rows)}\n\n${rows.length} tools for agent ${context.agent} (home ${context.home}); instructions: ${formatCount(assembly.instructions.length)} characters.\n`);
  io.stdout.write(`${describeSandboxStatus(status, allowHosts)}\n${describeCommandLimits(limits)}\n`);
  return EXIT_CODES.ok;
}
