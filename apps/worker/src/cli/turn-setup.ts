import { stat } from 'node:fs/promises';
import path from 'node:path';
import { webProfileFromEnv } from '@core/tools-web';
import type { TextTurnContext } from '../turn-context.js';
import { resolveAgentHome } from './agent-home.js';
import { CliError } from './cli-error.js';
import type { CliIO } from './cli-io.js';
import { stringValue, stringValues, type OptionTable, type ParsedCommandLine } from './parse-command-line.js';

/** The options every command that builds a turn shares. */
export const TURN_OPTIONS = {
  home: { type: 'string' },
  agent: { type: 'string' },
  skills: { type: 'string' },
  'web-search': { type: 'string' },
  'web-fetch': { type: 'boolean' },
  'web-allow-host': { type: 'string', multiple: true },
} as const satisfies OptionTable;

/** The help text of `TURN_OPTIONS`. */
export const TURN_OPTIONS_HELP = [
  '  --home DIR         the agent home (must exist; default: $XDG_DATA_HOME/ankole/agents/<agent>, created)',
  '  --agent NAME       the agent (default: "default")',
  '  --skills DIR       a folder of skills (sub-folders with a SKILL.md) active for this turn',
  '  --web-search NAME  bind web search: brave (BRAVE_API_KEY), tavily (TAVILY_API_KEY), searxng (SEARXNG_URL)',
  '                     or none (default: WEB_SEARCH_PROVIDER, else the first of those keys that is set)',
  '  --web-fetch        bind web_fetch (default: WEB_FETCH, else on when a search provider is bound)',
  '  --web-allow-host H let web_fetch reach host H even if it is private (repeatable)',
  '                     No web profile bound: no web tools.',
];

/**
 * The turn context the command line describes.
 * @throws CliError when the home or the skills folder does not exist, or the agent name is invalid.
 */
export async function resolveTurnSetup(values: ParsedCommandLine['values'], io: CliIO, signal: AbortSignal): Promise<TextTurnContext & { agent: string }> {
  const agent = stringValue(values, 'agent') ?? 'default';
  const homeOption = stringValue(values, 'home');
  const home = await resolveAgentHome({ agent, cwd: io.cwd, env: io.env, ...(homeOption === undefined ? {} : { home: homeOption }) });
  const context: TextTurnContext & { agent: string } = { home, agent, signal };
  const skills = stringValue(values, 'skills');
  if (skills !== undefined) {
    const skillsDir = path.resolve(io.cwd, skills);
    const info = await stat(skillsDir).catch(() => undefined);
    if (info === undefined || !info.isDirectory()) {
      throw new CliError('skills_not_found', `The skills folder ${skillsDir} does not exist: give --skills a folder that holds one sub-folder per skill.`);
    }
    context.skillsDir = skillsDir;
  }
  const webProfile = webProfileFromEnv(webEnvironment(values, io.env));
  if (webProfile !== undefined) context.webProfile = webProfile;
  return context;
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
