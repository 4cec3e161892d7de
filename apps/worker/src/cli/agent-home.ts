import { mkdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { CliError } from './cli-error.js';

/** Agent names: what a folder name and a log line can carry safely. */
export const AGENT_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** The user's data folder: `$XDG_DATA_HOME`, else `~/.local/share`. */
export function userDataDir(env: Readonly<Record<string, string | undefined>>): string {
  const dataHome = env.XDG_DATA_HOME;
  return dataHome !== undefined && dataHome !== '' ? dataHome : path.join(homedir(), '.local', 'share');
}

/** The default home of an agent: `<data dir>/ankole/agents/<agent>`. */
export function defaultAgentHome(agent: string, env: Readonly<Record<string, string | undefined>>): string {
  return path.join(userDataDir(env), 'ankole', 'agents', agent);
}

/** Options of `resolveAgentHome`. */
export interface ResolveAgentHomeOptions {
  /** `--home` as given (relative to `cwd`), if any: it must exist. */
  home?: string;
  agent: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The absolute home folder of a turn: `--home` (which must already exist), or the agent's default home
 * (created when missing).
 * @throws CliError when the agent name is invalid, `--home` does not exist or is not a folder.
 */
export async function resolveAgentHome(options: ResolveAgentHomeOptions): Promise<string> {
  if (!AGENT_NAME_PATTERN.test(options.agent)) {
    throw new CliError('agent_invalid', `The agent name "${options.agent}" is not valid: use letters, digits, "_" and "-" (1 to 64 characters).`);
  }
  if (options.home === undefined) {
    const home = defaultAgentHome(options.agent, options.env);
    await mkdir(home, { recursive: true });
    return home;
  }
  const home = path.resolve(options.cwd, options.home);
  const info = await stat(home).catch(() => undefined);
  if (info === undefined) {
    throw new CliError('home_not_found', `The home folder ${home} does not exist: create it, or leave out --home to use the agent's default home.`);
  }
  if (!info.isDirectory()) throw new CliError('home_not_folder', `The home ${home} is not a folder: give --home a folder.`);
  return home;
}
