import { DEFAULT_MAX_STEPS, DEFAULT_TOOL_TIMEOUT_MS } from '@core/runtime';
import { readApprovalRules } from '@core/worker';
import { describeControlPlaneChoice, type ControlPlaneChoice } from '../../control-plane/control-plane-choice.js';
import { CONTROL_PLANE_OPTIONS, controlPlaneChoiceFromOptions } from '../../control-plane/control-plane-options.js';
import { CONFIG_SETTINGS, configSetting, SETTING_VARIABLES, type ConfigSetting, type SettingSource } from '../ankole-config.js';
import { applyAnkoleConfig } from '../apply-config.js';
import type { CliCommand } from '../cli-command.js';
import { CliError, EXIT_CODES } from '../cli-error.js';
import { DEFAULT_MODEL } from '../model-setup.js';
import { parseCommandLine, stringValue } from '../parse-command-line.js';

const OPTIONS = {
  ...CONTROL_PLANE_OPTIONS,
  agent: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const HELP = [
  'Usage: ankole config show [--agent NAME] [--json]',
  '',
  'Shows the effective settings of `ankole run` for an agent and where each comes from: an environment variable,',
  'the agent file $XDG_CONFIG_HOME/ankole/agents/<agent>.json, the user file $XDG_CONFIG_HOME/ankole/config.json,',
  'or the default (a flag given to `ankole run` wins over all of them). Also the control plane the commands use.',
  '',
  'A config file is JSON, every field optional:',
  '  { "model": "gpt-5-mini", "baseURL": "http://localhost:8000/v1", "approve": "ask" | "auto" | "never",',
  '    "maxSteps": 30, "toolTimeoutSeconds": 300,',
  '    "web": { "search": "brave" | "tavily" | "searxng" | "none", "fetch": true, "allowHosts": ["intranet.local"] },',
  '    "commands": { "allowHosts": ["registry.npmjs.org", "*.github.com"], "unsandboxed": false },',
  '    "mcpConfig": "mcporter.json", "skills": "skills", "home": "~/notes",  (paths relative to the file\'s folder)',
  '    "context": { "windows": { "my-model": 64000 }, "threshold": 0.8, "compaction": "auto" | "server" | "local" | "off",',
  '                 "management": 200000 } }                  (context window: see the README)',
  'and, in an agent\'s file only, "approvals" (see `ankole run --help`). Keys (OPENAI_API_KEY, ...) stay in the environment.',
  '',
  'Options:',
  '  --agent NAME       the agent (default: "default")',
  '  --control-plane URL, --database-url URL, --data-dir DIR   as for every command (see `ankole --help`)',
  '  --json             print JSON: { agent, files, settings: { <name>: { value, source } }, approvals, controlPlane }',
  '  -h, --help         show this help',
  '',
].join('\n');

const DEFAULTS: Record<ConfigSetting, unknown> = {
  model: DEFAULT_MODEL,
  baseURL: 'https://api.openai.com/v1',
  approve: 'ask on a terminal, auto with the offline demo model, else never',
  maxSteps: DEFAULT_MAX_STEPS,
  toolTimeoutSeconds: DEFAULT_TOOL_TIMEOUT_MS / 1000,
  'web.search': 'the first of BRAVE_API_KEY, TAVILY_API_KEY, SEARXNG_URL that is set, else none',
  'web.fetch': 'on when a search provider is bound',
  'web.allowHosts': [],
  'commands.allowHosts': [],
  'commands.unsandboxed': false,
  mcpConfig: 'none',
  skills: 'none',
  home: '$XDG_DATA_HOME/ankole/agents/<agent> (created)',
  'context.windows': 'the runtime\'s table (GPT-5 272k, gpt-4.1 1M, gpt-4o 128k, o-series 200k, else 128k)',
  'context.threshold': 0.8,
  'context.compaction': 'auto (the server\'s /responses/compact, else local)',
  'context.management': 'off (no server-side compaction)',
};

/** `ankole config show`: the effective settings of an agent and where each comes from. */
export const configCommand: CliCommand = {
  name: 'config',
  summary: 'show the effective settings (config files, environment, defaults) and where each comes from',
  async run(args, io) {
    const { values, positionals } = parseCommandLine('config', args, OPTIONS);
    if (values.help === true) {
      io.stdout.write(HELP);
      return EXIT_CODES.ok;
    }
    const [action = 'show', ...rest] = positionals;
    if (action !== 'show' || rest.length > 0) {
      throw new CliError('action_unknown', `Unknown action "${[action, ...rest].join(' ')}" for \`ankole config\`: use show (see \`ankole config --help\`).`);
    }
    const { loaded } = await applyAnkoleConfig(values, io, { perAgent: true, flags: [] });
    const agent = stringValue(values, 'agent') ?? 'default';
    // The approval lists live in the agent file too; read (and checked) by their own reader.
    const approvals = await readApprovalRules(agent, io.env);
    const settings = Object.fromEntries(CONFIG_SETTINGS.map((setting) => [setting, effective(setting)])) as Record<ConfigSetting, SettingSource>;
    function effective(setting: ConfigSetting): SettingSource {
      const variable = SETTING_VARIABLES[setting];
      const fromEnv = variable === undefined ? undefined : io.env[variable];
      if (variable !== undefined && fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, source: variable };
      return configSetting(loaded, setting) ?? { value: DEFAULTS[setting], source: 'default' };
    }
    const choice = controlPlaneChoiceFromOptions(values, io);
    const files = { user: { file: loaded.user.file, exists: loaded.user.exists }, agent: { file: loaded.agent!.file, exists: loaded.agent!.exists } };
    if (values.json === true) {
      io.stdout.write(`${JSON.stringify({ agent, files, settings, approvals, controlPlane: { ...withoutSecrets(choice), description: describeControlPlaneChoice(choice) } })}\n`);
      return EXIT_CODES.ok;
    }
    const rows = CONFIG_SETTINGS.map((setting) => [setting, show(settings[setting].value), settings[setting].source]);
    const approvalsSource = loaded.agent!.exists ? loaded.agent!.file : 'default';
    rows.push(
      ['approvals.allow', show(approvals.allow), approvalsSource],
      ['approvals.deny', show(approvals.deny), approvalsSource],
      ['approvals.hold', show(approvals.hold), approvalsSource],
      ['approvals.background', approvals.background, approvalsSource],
    );
    rows.push(['controlPlane', describeControlPlaneChoice(choice), controlPlaneSource(choice)]);
    const width = [0, 1].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
    io.stdout.write(
      [
        `Agent ${agent}: user file ${files.user.file}${files.user.exists ? '' : ' (none)'}, agent file ${files.agent.file}${files.agent.exists ? '' : ' (none)'}.`,
        '',
        ...rows.map((row) => `${row[0]!.padEnd(width[0]!)}  ${row[1]!.padEnd(width[1]!)}  ${row[2]}`.trimEnd()),
        '',
      ].join('\n'),
    );
    return EXIT_CODES.ok;
  },
};

function show(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.join(', ');
  return String(value);
}

function controlPlaneSource(choice: ControlPlaneChoice): string {
  if (choice.kind === 'embedded' && choice.source === 'default') return choice.exists ? 'default' : 'default (not created yet)';
  return choice.source;
}

function withoutSecrets(choice: ControlPlaneChoice): Record<string, unknown> {
  if (choice.kind !== 'postgres') return { ...choice };
  return { kind: choice.kind, source: choice.source };
}
