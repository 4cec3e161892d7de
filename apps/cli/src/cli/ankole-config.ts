import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { agentConfigPath } from '@core/worker';
import { CliError } from './cli-error.js';
import { closestMatch } from './suggest.js';

/** What a config file may set: each a default that the environment and the command's flags override. */
export interface AnkoleConfig {
  /** The model (`--model`, `ANKOLE_MODEL`). */
  model?: string;
  /** A Responses-compatible server's API root (`OPENAI_BASE_URL`). */
  baseURL?: string;
  /** Calls that need approval in `ankole run` (`--approve`, `ANKOLE_APPROVE`). */
  approve?: 'ask' | 'auto' | 'never';
  /** Most model calls in a turn (`--max-steps`). */
  maxSteps?: number;
  /** How long a call of a tool that sets no timeout of its own may run, in seconds (default 120; `command` has its own). */
  toolTimeoutSeconds?: number;
  /** The web profile (`--web-search`, `--web-fetch`, `--web-allow-host`; `WEB_SEARCH_PROVIDER`, `WEB_FETCH`, `WEB_FETCH_ALLOW_HOSTS`). */
  web?: { search?: 'brave' | 'tavily' | 'searxng' | 'none'; fetch?: boolean; allowHosts?: string[] };
  /**
   * The agent's `command` tool: hosts its commands may reach (`--allow-host`; none by default: no network), and the
   * explicit opt-out of the OS sandbox (`--unsandboxed-commands`).
   */
  commands?: { allowHosts?: string[]; unsandboxed?: boolean };
  /** An mcporter config (`--mcp-config`); relative to the config file's folder. Absolute once loaded. */
  mcpConfig?: string;
  /** A folder of skills (`--skills`); relative to the config file's folder. Absolute once loaded. */
  skills?: string;
  /** The agent's home folder (`--home`; `ankole run`, its jobs and schedules); relative to the config file's folder. Absolute once loaded. */
  home?: string;
  /** How turns stay within the model's context window (see `context-config.ts`). */
  context?: ContextConfig;
}

/** The `context` settings: windows by model, when to compact, how, and server-side compaction. */
export interface ContextConfig {
  /** Input windows in tokens by model name, over the runtime's table (e.g. `{ "my-model": 64000 }`). */
  windows?: Record<string, number>;
  /** Compact before a request that would fill more than this share of the window (default 0.8). */
  threshold?: number;
  /** `auto` (default: the server's /responses/compact, else local), `server`, `local` or `off`. */
  compaction?: 'auto' | 'server' | 'local' | 'off';
  /** Server-side compaction: the `compact_threshold` (tokens, at least 1000) sent as `context_management`. */
  management?: number;
}

/** The settings of `AnkoleConfig`, in the order `ankole config show` lists them. */
export const CONFIG_SETTINGS = [
  'model',
  'baseURL',
  'approve',
  'maxSteps',
  'toolTimeoutSeconds',
  'web.search',
  'web.fetch',
  'web.allowHosts',
  'commands.allowHosts',
  'commands.unsandboxed',
  'mcpConfig',
  'skills',
  'home',
  'context.windows',
  'context.threshold',
  'context.compaction',
  'context.management',
] as const;

/** One setting's name (`web.search` for a nested one). */
export type ConfigSetting = (typeof CONFIG_SETTINGS)[number];

/** The two config files' schemas, built when a config file is first read (not at load: most runs have none). */
function buildSchemas() {
  const webSchema = z.strictObject({
    search: z.enum(['brave', 'tavily', 'searxng', 'none']).optional(),
    fetch: z.boolean().optional(),
    allowHosts: z.array(z.string().min(1)).optional(),
  });
  const commandsSchema = z.strictObject({
    allowHosts: z.array(z.string().regex(/^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*\.?$/, 'a host name like example.com or *.example.com')).optional(),
    unsandboxed: z.boolean().optional(),
  });
  const contextSchema = z.strictObject({
    windows: z.record(z.string().min(1), z.int().positive()).optional(),
    threshold: z.number().gt(0).lte(1).optional(),
    compaction: z.enum(['auto', 'server', 'local', 'off']).optional(),
    management: z.int().min(1000).optional(),
  });
  const settingsShape = {
    model: z.string().min(1).optional(),
    baseURL: z.url({ protocol: /^https?$/ }).optional(),
    approve: z.enum(['ask', 'auto', 'never']).optional(),
    maxSteps: z.int().min(1).optional(),
    toolTimeoutSeconds: z.number().positive().optional(),
    web: webSchema.optional(),
    commands: commandsSchema.optional(),
    mcpConfig: z.string().min(1).optional(),
    skills: z.string().min(1).optional(),
    home: z.string().min(1).optional(),
    context: contextSchema.optional(),
  };
  return {
    /** The user file: `$XDG_CONFIG_HOME/ankole/config.json`. */
    user: z.strictObject(settingsShape),
    /** The agent file: the same settings, and the `approvals` lists that `readApprovalRules` of @core/worker reads and checks. */
    agent: z.strictObject({ ...settingsShape, approvals: z.unknown().optional() }),
  };
}

type ConfigSchemas = ReturnType<typeof buildSchemas>;
/** The kinds of config file: `user` (one per user) and `agent` (one per agent). */
type ConfigKind = keyof ConfigSchemas;
let schemas: ConfigSchemas | undefined;

/** What a config file of each kind is called in a message, given where each kind of file is. */
const FILE_NAMES: Record<ConfigKind, (places: ConfigPlaces) => string> = {
  user: (places) => `the user's file (${places.user})`,
  agent: (places) => `an agent's file (${places.agent}, one file per agent)`,
};

/** Where each kind of config file is (for an agent's file with no agent named: `<agent>.json` in the agents folder). */
type ConfigPlaces = Record<ConfigKind, string>;

/** One config file as read. */
export interface ConfigFile {
  /** Its path (absolute). */
  file: string;
  /** Whether it exists. */
  exists: boolean;
  /** Its settings (paths made absolute); empty when it does not exist. */
  config: AnkoleConfig;
}

/** The config files of an agent: the user file under the agent file. */
export interface LoadedConfig {
  user: ConfigFile;
  /** Absent for a command that runs no particular agent (`ankole worker`). */
  agent?: ConfigFile;
}

/** The user's config folder: `$XDG_CONFIG_HOME/ankole`, else `~/.config/ankole`. */
function configDir(env: Readonly<Record<string, string | undefined>>): string {
  const configHome = env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : path.join(homedir(), '.config');
  return path.join(configHome, 'ankole');
}

/** The user-level config file: `$XDG_CONFIG_HOME/ankole/config.json` (else `~/.config/ankole/config.json`). */
export function userConfigPath(env: Readonly<Record<string, string | undefined>>): string {
  return path.join(configDir(env), 'config.json');
}

/**
 * Reads the user file and, when `agent` is given, the agent's file (`$XDG_CONFIG_HOME/ankole/agents/<agent>.json`, the
 * file that also holds its approval lists). A file that does not exist sets nothing.
 * @throws CliError (`config_invalid`, exit 2) naming the file and the field, in one sentence, when a file is not JSON,
 *   has a field it should not, or a value of the wrong kind.
 */
export async function loadAnkoleConfig(options: { agent?: string | undefined; env: Readonly<Record<string, string | undefined>> }): Promise<LoadedConfig> {
  const places: ConfigPlaces = { user: userConfigPath(options.env), agent: agentConfigPath(options.agent ?? '<agent>', options.env) };
  const user = await readConfigFile(places, 'user');
  if (options.agent === undefined) return { user };
  return { user, agent: await readConfigFile(places, 'agent') };
}

async function readConfigFile(places: ConfigPlaces, kind: ConfigKind): Promise<ConfigFile> {
  const file = places[kind];
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file, exists: false, config: {} };
    throw new CliError('config_unreadable', `The config file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}): fix its permissions or remove it.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError('config_invalid', `The config file ${file} is not JSON (${(error as Error).message}): fix it or remove it.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError('config_invalid', `The config file ${file} is not valid: it must be a JSON object, like { "model": "gpt-5-mini" }.`);
  }
  schemas ??= buildSchemas();
  const parsed = schemas[kind].safeParse(value);
  if (!parsed.success) throw new CliError('config_invalid', `The config file ${file} is not valid: ${describeIssue(parsed.error.issues[0], kind, places)}.`);
  const { approvals: _approvals, ...settings } = parsed.data as AnkoleConfig & { approvals?: unknown };
  const folder = path.dirname(file);
  const config: AnkoleConfig = { ...settings };
  if (config.mcpConfig !== undefined) config.mcpConfig = path.resolve(folder, config.mcpConfig);
  if (config.skills !== undefined) config.skills = path.resolve(folder, config.skills);
  if (config.home !== undefined) config.home = path.resolve(folder, config.home.replace(/^~(?=$|\/)/, homedir()));
  return { file, exists: true, config };
}

/**
 * One Zod issue of a config file of `kind` as the end of a sentence: the field, then what is wrong with it. An unknown
 * field is matched against what the file's own schema accepts there (never suggesting the very word typed), and one
 * that belongs in the other kind of file says so, naming that file.
 */
function describeIssue(issue: z.core.$ZodIssue | undefined, kind: ConfigKind, places: ConfigPlaces): string {
  if (issue === undefined) return 'its content does not fit';
  const field = issue.path.map(String).join('.');
  const where = field === '' ? '' : `${field} `;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const key = issue.keys[0] ?? '';
      const name = field === '' ? key : `${field}.${key}`;
      const all = schemas!;
      const elsewhere = (Object.keys(all) as ConfigKind[]).find((other) => other !== kind && fieldsAt(all[other], issue.path)?.includes(key) === true);
      if (elsewhere !== undefined) return `"${name}" belongs in ${FILE_NAMES[elsewhere](places)}, not in this one: move it there`;
      // The nearest field this file accepts there, else the nearest one another kind of file accepts (saying which).
      const own = fieldsAt(all[kind], issue.path) ?? [];
      let match = closestMatch(key, own);
      let whose = '';
      for (const other of (Object.keys(all) as ConfigKind[]).filter((other) => other !== kind)) {
        if (match !== undefined) break;
        match = closestMatch(key, (fieldsAt(all[other], issue.path) ?? []).filter((candidate) => !own.includes(candidate)));
        if (match !== undefined) whose = `, which belongs in ${FILE_NAMES[other](places)}`;
      }
      const meant = match === undefined ? '' : ` (did you mean ${field === '' ? match : `${field}.${match}`}${whose}?)`;
      return `"${name}" is not a setting${meant}; the settings of this file are ${settingsOf(all[kind]).join(', ')}`;
    }
    case 'invalid_value':
      return `${where}must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_type':
      return `${where}must be ${article(issue.expected)}`;
    case 'too_small':
      return `${where}must be ${issue.origin === 'string' || issue.origin === 'array' ? 'non-empty' : `${issue.inclusive === false ? 'more than' : 'at least'} ${String(issue.minimum)}`}`;
    case 'invalid_format':
      return issue.format === 'regex' ? `${where}must be ${issue.message}` : `${where}must be an http(s) URL`;
    default:
      return `${where}is not valid (${issue.message})`;
  }
}

/** The field names the object schema at `path` of `schema` accepts (optional wrappers looked through), or `undefined`. */
function fieldsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] | undefined {
  let node: z.ZodType | undefined = schema;
  for (const step of path) node = objectShape(node)?.[String(step)];
  const shape = objectShape(node);
  return shape === undefined ? undefined : Object.keys(shape);
}

/** Every setting a config schema accepts, a nested one as `web.search`, in the schema's order. */
function settingsOf(schema: z.ZodType, prefix = ''): string[] {
  const shape = objectShape(schema);
  if (shape === undefined) return [];
  return Object.entries(shape).flatMap(([key, value]) => (objectShape(value) === undefined ? [`${prefix}${key}`] : settingsOf(value, `${prefix}${key}.`)));
}

function objectShape(schema: z.ZodType | undefined): Record<string, z.ZodType> | undefined {
  let node = schema;
  while (node instanceof z.ZodOptional) node = node.unwrap() as z.ZodType;
  return node instanceof z.ZodObject ? (node.shape as Record<string, z.ZodType>) : undefined;
}

function article(expected: string): string {
  if (expected === 'int') return 'a whole number';
  if (expected === 'array') return 'a list';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** Where an effective value came from: a flag, a variable, a config file, or the default. */
export interface SettingSource {
  value: unknown;
  /** `--model`, `ANKOLE_MODEL`, a config file's path, or `default`. */
  source: string;
}

/** The environment variable each setting stands in for (settings without one are flag defaults only). */
export const SETTING_VARIABLES: Partial<Record<ConfigSetting, string>> = {
  model: 'ANKOLE_MODEL',
  baseURL: 'OPENAI_BASE_URL',
  approve: 'ANKOLE_APPROVE',
  'web.search': 'WEB_SEARCH_PROVIDER',
  'web.fetch': 'WEB_FETCH',
  'web.allowHosts': 'WEB_FETCH_ALLOW_HOSTS',
  'commands.unsandboxed': 'ANKOLE_UNSANDBOXED_COMMANDS',
};

/** A setting's value in one config. */
export function settingValue(config: AnkoleConfig, setting: ConfigSetting): unknown {
  const dot = setting.indexOf('.');
  if (dot < 0) return config[setting as keyof AnkoleConfig];
  const group = config[setting.slice(0, dot) as 'web' | 'commands' | 'context'] as Record<string, unknown> | undefined;
  return group?.[setting.slice(dot + 1)];
}

/** A setting from the config files: the agent file's value, else the user file's, with the file it came from. */
export function configSetting(loaded: LoadedConfig, setting: ConfigSetting): SettingSource | undefined {
  for (const file of [loaded.agent, loaded.user]) {
    if (file === undefined) continue;
    const value = settingValue(file.config, setting);
    if (value !== undefined) return { value, source: file.file };
  }
  return undefined;
}

/**
 * The environment with the config files' settings as defaults: a variable that is set (and not empty) keeps its value,
 * an unset one takes the agent file's value, else the user file's. Flags are applied over this by each command.
 */
export function environmentWithConfig(env: Readonly<Record<string, string | undefined>>, loaded: LoadedConfig): Record<string, string | undefined> {
  const merged: Record<string, string | undefined> = { ...env };
  for (const [setting, variable] of Object.entries(SETTING_VARIABLES) as Array<[ConfigSetting, string]>) {
    if (env[variable] !== undefined && env[variable] !== '') continue;
    const found = configSetting(loaded, setting);
    if (found === undefined) continue;
    merged[variable] = Array.isArray(found.value) ? found.value.join(',') : String(found.value);
  }
  return merged;
}
