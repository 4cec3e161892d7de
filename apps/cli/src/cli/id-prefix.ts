import { CliError } from './cli-error.js';

const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Options of `resolveIdPrefix`. */
export interface ResolveIdPrefixOptions {
  /** What the user typed: a whole id, or its first characters (at least 4). */
  given: string;
  /** What it names, for messages (`job`, `schedule`). */
  kind: string;
  /** The ids it may stand for (the agent's), newest first. */
  candidates: () => Promise<readonly string[]>;
  /** The agent whose ids these are: a prefix that matches none of them says so and hints at `--agent`. */
  agentId?: string | undefined;
}

/**
 * The whole id a user means, as git does with commits: a whole id is taken as it is; a prefix (4 characters or more,
 * dashes optional) must match exactly one of the candidates.
 * @throws CliError (exit code 2) when the prefix is too short, matches nothing (naming the agent, when given, and
 *   `--agent`), or matches several ids (they are listed).
 */
export async function resolveIdPrefix(options: ResolveIdPrefixOptions): Promise<string> {
  const given = options.given.trim();
  if (FULL_ID.test(given)) return given;
  const wanted = given.toLowerCase().replaceAll('-', '');
  if (!/^[0-9a-f]{4,}$/.test(wanted)) {
    throw new CliError('id_invalid', `"${given}" is not a ${options.kind} id: give the id, or its first 4 characters or more.`);
  }
  const matches = (await options.candidates()).filter((id) => id.toLowerCase().replaceAll('-', '').startsWith(wanted));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    const whose = options.agentId === undefined ? '' : ` for agent ${options.agentId} (another agent's: pass --agent NAME)`;
    throw new CliError('id_not_found', `No ${options.kind} id starts with "${given}"${whose}.`);
  }
  const shown = matches.slice(0, 5).join(', ');
  throw new CliError('id_ambiguous', `"${given}" starts ${matches.length} ${options.kind} ids (${shown}${matches.length > 5 ? ', …' : ''}): give more of it.`);
}
