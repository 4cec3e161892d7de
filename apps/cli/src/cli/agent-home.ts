import { access, constants, mkdir, stat } from 'node:fs/promises';
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

/**
 * An agent's own data, kept by the CLI next to the agent homes and outside them (the file tools, held to the home,
 * cannot rewrite it): `<data dir>/ankole/agent-data/<agent>` (conversations and their transcripts).
 */
export function agentDataDir(agent: string, env: Readonly<Record<string, string | undefined>>): string {
  return path.join(userDataDir(env), 'ankole', 'agent-data', agent);
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
 * @throws CliError when the agent name is invalid, `--home` is empty or the file system's root, does not exist, is not a
 *   folder, or is not writable by the user.
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
  if (options.home.trim() === '') {
    throw new CliError('home_empty', "--home is empty: give it a folder, or leave it out to use the agent's default home.");
  }
  const home = path.resolve(options.cwd, options.home);
  if (path.parse(home).root === home) {
    throw new CliError('home_root', `--home ${home} is the root of the file system: the agent may write anywhere in its home, so give it a folder of its own.`);
  }
  const info = await stat(home).catch(() => undefined);
  if (info === undefined) {
    throw new CliError('home_not_found', `The home folder ${home} does not exist: create it, or leave out --home to use the agent's default home.`);
  }
  if (!info.isDirectory()) throw new CliError('home_not_folder', `The home ${home} is not a folder: give --home a folder.`);
  const writable = await access(home, constants.W_OK | constants.X_OK).then(
    () => true,
    () => false,
  );
  if (!writable) throw new CliError('home_not_writable', `The home ${home} is not writable by you: give --home a folder you can write to.`);
  return home;
}
