import path from 'node:path';
import type { SettingSource } from './ankole-config.js';
import { resolveAgentHome } from './agent-home.js';
import { CliError } from './cli-error.js';
import type { Conversation } from './conversation-store.js';

/** Options of `turnHome`. */
export interface TurnHomeOptions {
  /** The conversation the turn goes on with (`-c`, `--resume`), if any. */
  conversation?: Conversation | undefined;
  /** `--home` as given, if any. */
  given?: string | undefined;
  /** The config files' `home` setting, if any (absolute). */
  configured?: SettingSource | undefined;
  cwd: string;
}

/**
 * The home a turn of `ankole run` asks for, before it is checked (`resolveAgentHome`): a conversation's own home when it goes
 * on with one (the model's earlier turns are about its files), else `--home`, else the config's `home`, else `undefined`
 * (the agent's default home).
 * @throws CliError (`home_conflict`) when `--home` names another folder than the conversation's home.
 */
export function turnHome(options: TurnHomeOptions): string | undefined {
  const { conversation, given } = options;
  if (conversation !== undefined) {
    if (given !== undefined && given.trim() !== '' && path.resolve(options.cwd, given) !== conversation.home) {
      throw new CliError(
        'home_conflict',
        `Conversation ${conversation.id.slice(0, 8)} works in the home ${conversation.home}: leave out --home to go on with it there, or leave out -c/--resume to start a new conversation in ${path.resolve(options.cwd, given)}.`,
      );
    }
    return conversation.home;
  }
  return given ?? (options.configured === undefined ? undefined : String(options.configured.value));
}

/** Options of `queuedWorkHome`. */
export interface QueuedWorkHomeOptions {
  /** `--home` as given, if any. */
  given: string | undefined;
  agent: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The control plane is remote (HTTP): its workers may be on another machine, so the folder is not checked here. */
  remote: boolean;
}

/**
 * The home a job or schedule is queued with (`jobs start --home`, `schedules create --home`): absolute, and an existing,
 * writable folder when the control plane is local; `undefined` without `--home` (the worker then uses the agent config's
 * `home`, else the agent's default home).
 * @throws CliError as `resolveAgentHome` when the folder is not usable here.
 */
export async function queuedWorkHome(options: QueuedWorkHomeOptions): Promise<string | undefined> {
  if (options.given === undefined) return undefined;
  if (options.remote) return path.resolve(options.cwd, options.given);
  return resolveAgentHome({ home: options.given, agent: options.agent, cwd: options.cwd, env: options.env });
}
