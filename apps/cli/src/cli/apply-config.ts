import { configSetting, environmentWithConfig, loadAnkoleConfig, type LoadedConfig } from './ankole-config.js';
import { AGENT_NAME_PATTERN } from './agent-home.js';
import { CliError } from './cli-error.js';
import type { CliIO } from './cli-io.js';
import { stringValue, stringValues, type ParsedCommandLine } from './parse-command-line.js';

/** A command's options and I/O with the config files applied under them. */
export interface ConfiguredCommand {
  /** The options, with `--max-steps`, `--mcp-config` and `--skills` taken from the config files when not given. */
  values: ParsedCommandLine['values'];
  /** The I/O whose `env` has the config files' settings for the variables that are not set (`environmentWithConfig`). */
  io: CliIO;
  /** The config's tool timeout, in ms, when one is set. */
  toolTimeoutMs: number | undefined;
  loaded: LoadedConfig;
}

/** The suffix of the key that holds the config file a flag's value came from (`mcp-config@config`). */
const FROM_CONFIG = '@config';

/** The config file a flag's value was taken from by `applyAnkoleConfig` (undefined: the flag was given, or not set). */
export function configSource(values: ParsedCommandLine['values'], flag: string): string | undefined {
  return stringValue(values, `${flag}${FROM_CONFIG}`);
}

/** The flags a config setting fills in when they are not given. */
const FLAG_SETTINGS = [
  ['max-steps', 'maxSteps'],
  ['mcp-config', 'mcpConfig'],
  ['skills', 'skills'],
] as const;

/**
 * Applies the config files (the user file, then the agent file over it when `agent` is set: the `--agent` option, else
 * `default`) under the environment and the flags: flags win, then variables, then the agent file, then the user file.
 * Only the flags the command has (`options`) are filled in.
 * @throws CliError when the agent name is not valid or a config file is not (one sentence naming the file and field).
 */
export async function applyAnkoleConfig(
  values: ParsedCommandLine['values'],
  io: CliIO,
  options: { perAgent: boolean; flags: readonly string[] },
): Promise<ConfiguredCommand> {
  let agent: string | undefined;
  if (options.perAgent) {
    agent = stringValue(values, 'agent') ?? 'default';
    if (!AGENT_NAME_PATTERN.test(agent)) {
      throw new CliError('agent_invalid', `The agent name "${agent}" is not valid: use letters, digits, "_" and "-" (1 to 64 characters).`);
    }
  }
  const loaded = await loadAnkoleConfig({ agent, env: io.env });
  const configured: ParsedCommandLine['values'] = { ...values };
  for (const [flag, setting] of FLAG_SETTINGS) {
    if (!options.flags.includes(flag) || stringValue(values, flag) !== undefined) continue;
    const found = configSetting(loaded, setting);
    if (found === undefined) continue;
    configured[flag] = String(found.value);
    // Which file gave it, so a message about it names that file rather than the flag (`configSource`).
    configured[`${flag}${FROM_CONFIG}`] = found.source;
  }
  // The commands' allowed hosts: the config files' before the flag's. (The opt-out, commands.unsandboxed, is
  // ANKOLE_UNSANDBOXED_COMMANDS in the environment.)
  const configHosts = configSetting(loaded, 'commands.allowHosts');
  if (options.flags.includes('allow-host') && configHosts !== undefined) {
    configured['allow-host'] = [...(configHosts.value as string[]), ...stringValues(values, 'allow-host')];
  }
  const timeout = configSetting(loaded, 'toolTimeoutSeconds');
  return {
    values: configured,
    // The properties as they are (getters stay getters: `stdinIsTTY` opens standard input only when asked).
    io: Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(io), env: { value: environmentWithConfig(io.env, loaded), enumerable: true, writable: true, configurable: true } }) as CliIO,
    toolTimeoutMs: timeout === undefined ? undefined : Math.round((timeout.value as number) * 1000),
    loaded,
  };
}

/**
 * Where the model's base URL comes from, as messages name it: `OPENAI_BASE_URL` when the variable is set (in `env`, the
 * environment before the config files), `baseURL in <file>` when a config file sets it, `undefined` when neither does.
 */
export function baseURLSource(env: Readonly<Record<string, string | undefined>>, loaded: LoadedConfig): string | undefined {
  if (env.OPENAI_BASE_URL !== undefined && env.OPENAI_BASE_URL.trim() !== '') return 'OPENAI_BASE_URL';
  const found = configSetting(loaded, 'baseURL');
  return found === undefined ? undefined : `baseURL in ${found.source}`;
}
