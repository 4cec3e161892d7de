import { stat } from 'node:fs/promises';
import path from 'node:path';
import { WebConfigError, webProfileFromEnv, type WebProfile } from '@core/tools-web';
import type { TextTurnContext } from '@core/worker';
import { describeControlPlaneChoice, type ControlPlaneChoice } from '../control-plane/control-plane-choice.js';
import { CONTROL_PLANE_OPTIONS, controlPlaneChoiceFromOptions, openChosenControlPlane } from '../control-plane/control-plane-options.js';
import { createLazyControlPlane } from '../control-plane/lazy-control-plane.js';
import { resolveAgentHome } from './agent-home.js';
import { configSource } from './apply-config.js';
import { commandsSetup, type CommandsSetup } from './command-sandbox-setup.js';
import { CliError } from './cli-error.js';
import type { CliIO } from './cli-io.js';
import { stringValue, stringValues, type OptionTable, type ParsedCommandLine } from './parse-command-line.js';

/** The options every command that builds a turn shares. */
export const TURN_OPTIONS = {
  home: { type: 'string' },
  agent: { type: 'string' },
  skills: { type: 'string' },
  env: { type: 'string', multiple: true },
  'web-search': { type: 'string' },
  'web-fetch': { type: 'boolean' },
  'web-allow-host': { type: 'string', multiple: true },
  'mcp-config': { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  'unsandboxed-commands': { type: 'boolean' },
  brain: { type: 'boolean' },
  ...CONTROL_PLANE_OPTIONS,
} as const satisfies OptionTable;

/** The help text of `TURN_OPTIONS`. */
export const TURN_OPTIONS_HELP = [
  '  --home DIR         the agent home (must exist; default: $XDG_DATA_HOME/ankole/agents/<agent>, created)',
  '  --agent NAME       the agent (default: "default")',
  '  --skills DIR       a folder of skills (sub-folders with a SKILL.md) active for this turn',
  '  --env NAME[=VALUE] let the agent\'s commands and MCP servers see this variable (its value here, or VALUE;',
  '                     repeatable)',
  '  --web-search NAME  bind web search: brave (BRAVE_API_KEY), tavily (TAVILY_API_KEY), searxng (SEARXNG_URL)',
  '                     or none (default: WEB_SEARCH_PROVIDER, else the first of those keys that is set)',
  '  --web-fetch        bind web_fetch (default: WEB_FETCH, else on when a search provider is bound)',
  '  --web-allow-host H let web_fetch reach host H even if it is private (repeatable)',
  '                     No web profile bound: no web tools.',
  '  --mcp-config FILE  an mcporter config (mcpServers): each server\'s tools join the turn, namespaced by server',
  '  --allow-host H     let the agent\'s commands reach host H (HTTP/HTTPS through the sandbox\'s proxy; *.example.com',
  '                     for sub-domains; repeatable). Without it, commands have no network.',
  '  --unsandboxed-commands',
  '                     run commands WITHOUT the OS sandbox (bubblewrap): they can then read and change everything',
  '                     this user can. Without bubblewrap and without this flag, commands are refused.',
  '  --brain            enable Brain: the turn gets recall, get_page, create_page, update_page and delete_page over',
  '                     the agent\'s pages in the control plane',
  '  --control-plane URL, --database-url URL, --data-dir DIR',
  '                     the control plane, chosen as for every command (see `ankole --help`): the turn gets the',
  '                     schedule, job and workflow tools, and opens it at their first call. The default embedded',
  '                     database only once it exists (`ankole jobs`, `schedules`, `worker` create it) or with --brain.',
];

/** The help lines on the config files, after a command's options. */
export const CONFIG_FILES_HELP = [
  'Defaults for the options (the model, the step limit, approvals, web tools, MCP config, skills...) can be kept in',
  '$XDG_CONFIG_HOME/ankole/config.json and, over it, $XDG_CONFIG_HOME/ankole/agents/<agent>.json; variables and',
  'flags win over both. `ankole config show` prints what applies and where it comes from.',
];

/** A turn's context, and what to release once the turn is over. */
export interface TurnSetup {
  context: TextTurnContext & { agent: string };
  /** Where schedules and jobs are kept, when a control plane is bound. */
  controlPlaneWhere?: string;
  /** Things the user should know that do not stop the turn (an MCP server that is down). */
  warnings: string[];
  /** How the turn's commands run (sandboxed or not, allowed hosts). */
  commands: CommandsSetup;
  /** Closes what the setup opened (MCP connections, the control plane, the command sandbox). */
  close(): Promise<void>;
}

/**
 * The turn context the command line describes; binds the control plane `turnControlPlane` picks (opened at its first call).
 * @throws CliError when the home or the skills folder does not exist, or the agent name is invalid;
 * WebConfigError for a bad web configuration; ControlPlaneFailure when the database cannot be opened.
 */
export async function resolveTurnSetup(values: ParsedCommandLine['values'], io: CliIO, signal: AbortSignal): Promise<TurnSetup> {
  const agent = stringValue(values, 'agent') ?? 'default';
  const homeOption = stringValue(values, 'home');
  const home = await resolveAgentHome({ agent, cwd: io.cwd, env: io.env, ...(homeOption === undefined ? {} : { home: homeOption }) });
  const context: TextTurnContext & { agent: string } = { home, agent, signal };
  const skills = stringValue(values, 'skills');
  if (skills !== undefined) {
    const skillsDir = path.resolve(io.cwd, skills);
    const info = await stat(skillsDir).catch(() => undefined);
    if (info === undefined) {
      throw new CliError('skills_not_found', `The skills folder ${skillsDir} does not exist: give --skills a folder that holds one sub-folder per skill.`);
    }
    if (!info.isDirectory()) {
      throw new CliError('skills_not_folder', `The skills path ${skillsDir} is not a folder: give --skills a folder that holds one sub-folder per skill.`);
    }
    context.skillsDir = skillsDir;
  }
  const commandEnv = commandEnvironment(values, io.env);
  if (commandEnv !== undefined) context.env = commandEnv;
  const webProfile = webProfileFromOptions(values, io.env);
  if (webProfile !== undefined) context.webProfile = webProfile;
  const brain = values.brain === true;
  const choice = turnControlPlane(values, io, brain);
  const warnings: string[] = [];
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) await closer();
  };
  const commands = commandsSetup(values, io);
  closers.push(() => commands.close());
  context.commandSandbox = commands.sandbox;
  if (commands.allowHosts.length > 0) context.allowHosts = commands.allowHosts;
  if (commands.refusal !== undefined) warnings.push(commands.refusal);
  try {
    const configPath = await mcpConfigOption(values, io);
    if (configPath !== undefined) {
      // The servers see the variables `--env` allows, like the commands (plus their own config's env).
      // The MCP client (mcporter) is loaded only for a turn with an MCP config.
      const { createMcpTools } = await import('@core/tools-mcp');
      const mcp = await createMcpTools({
        configPath,
        rootDir: path.dirname(configPath),
        ...(commandEnv === undefined ? {} : { env: commandEnv }),
        logger: { warn: () => undefined, error: () => undefined },
      });
      closers.push(() => mcp.close());
      for (const problem of mcp.unavailable) warnings.push(problem.reason);
      context.extraTools = mcp.tools;
    }
    if (choice === undefined) return { context, warnings, commands, close };
    // Opened at the first call of a control-plane tool: a turn that does not use one does not wait for the database.
    const lazy = createLazyControlPlane(async () => (await openChosenControlPlane(choice, io, false)).controlPlane);
    closers.push(() => lazy.close());
    context.controlPlane = lazy.client;
    context.allowJobs = true;
    if (brain) context.brain = true;
    return { context, controlPlaneWhere: describeControlPlaneChoice(choice), warnings, commands, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The absolute path of the `--mcp-config` file, when the option is given.
 * @throws CliError when the file does not exist or is not a file; McpConfigError (a usage error) when it is not JSON
 *   or not an mcporter config.
 */
export async function mcpConfigOption(values: ParsedCommandLine['values'], io: Pick<CliIO, 'cwd'>): Promise<string | undefined> {
  const mcpConfig = stringValue(values, 'mcp-config');
  if (mcpConfig === undefined) return undefined;
  const configPath = path.resolve(io.cwd, mcpConfig);
  const info = await stat(configPath).catch(() => undefined);
  const file = configSource(values, 'mcp-config');
  // From a config file: the message names that file's `mcpConfig`, not a flag the user never gave.
  const fix = file === undefined ? 'give --mcp-config' : `fix "mcpConfig" in ${file} (or give --mcp-config) to name`;
  if (info === undefined) throw new CliError('mcp_config_not_found', `The MCP config ${configPath} does not exist: ${fix} an mcporter config file.`);
  if (!info.isFile()) throw new CliError('mcp_config_not_file', `The MCP config ${configPath} is not a file: ${fix} an mcporter config file (JSON with mcpServers).`);
  // Bad JSON or the wrong shape is a usage error (McpConfigError, one sentence) before anything starts.
  const { checkMcpConfig } = await import('@core/tools-mcp');
  await checkMcpConfig(configPath);
  return configPath;
}

/**
 * The control plane a turn binds: the options' choice, like every command's; but the default embedded database only
 * when it exists already (someone used `ankole jobs`, `schedules` or `worker`) or `--brain` asks for it, so a plain
 * turn neither creates a database nor carries the control-plane tools' definitions for nothing.
 */
function turnControlPlane(values: ParsedCommandLine['values'], io: CliIO, brain: boolean): ControlPlaneChoice | undefined {
  const choice = controlPlaneChoiceFromOptions(values, io);
  if (choice.kind === 'embedded' && choice.source === 'default' && !choice.exists && !brain) return undefined;
  return choice;
}

/**
 * The variables `--env` lets commands see.
 * @throws CliError for a bad name or a variable that is not set.
 */
function commandEnvironment(values: ParsedCommandLine['values'], env: CliIO['env']): Record<string, string> | undefined {
  const entries = stringValues(values, 'env');
  if (entries.length === 0) return undefined;
  const allowed: Record<string, string> = {};
  for (const entry of entries) {
    const separator = entry.indexOf('=');
    const name = separator === -1 ? entry : entry.slice(0, separator);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new CliError('env_invalid', `--env ${entry}: "${name}" is not a variable name.`);
    const value = separator === -1 ? env[name] : entry.slice(separator + 1);
    if (value === undefined) throw new CliError('env_unset', `--env ${name}: ${name} is not set here; give it a value with --env ${name}=VALUE.`);
    allowed[name] = value;
  }
  return allowed;
}

/**
 * The web profile of the `--web-*` flags over the `WEB_*` variables (none when nothing is configured).
 * @throws WebConfigError for a bad configuration; said in terms of `--web-search` when the flag chose it.
 */
function webProfileFromOptions(values: ParsedCommandLine['values'], env: CliIO['env']): WebProfile | undefined {
  try {
    return webProfileFromEnv(webEnvironment(values, env));
  } catch (error) {
    const prefix = 'WEB_SEARCH_PROVIDER=';
    if (error instanceof WebConfigError && stringValue(values, 'web-search') !== undefined && error.message.startsWith(prefix)) {
      throw new CliError('web_search_invalid', `--web-search ${error.message.slice(prefix.length)}`, { cause: error });
    }
    throw error;
  }
}

/** The environment with the `--web-*` flags applied over the `WEB_*` variables. */
function webEnvironment(values: ParsedCommandLine['values'], env: CliIO['env']): Record<string, string | undefined> {
  const merged: Record<string, string | undefined> = { ...env };
  const search = stringValue(values, 'web-search');
  if (search !== undefined) merged.WEB_SEARCH_PROVIDER = search;
  if (values['web-fetch'] === true) merged.WEB_FETCH = 'true';
  const hosts = stringValues(values, 'web-allow-host');
  if (hosts.length > 0) merged.WEB_FETCH_ALLOW_HOSTS = [env.WEB_FETCH_ALLOW_HOSTS ?? '', ...hosts].filter((host) => host !== '').join(',');
  return merged;
}
