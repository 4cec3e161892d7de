import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { mcporterConfigPath } from './command-environment.js';
import { copyFolderInto, ensureFolderAt, readTextAt, removeAt, renameAt, writeFileAtomicAt } from './held-entries.js';
import { closeFolders, openHomeFolder, readFolder, type HeldFolder } from './held-folder.js';
import { homeFolder, type HomeFolder } from './home-folder.js';
import { walkInHome } from './walk-in-home.js';
import type { Skill, SkillMcpServer, SkillProblem } from './skill.js';

/** Options of `projectSkills`. */
export interface ProjectSkillsOptions {
  /** The agent's home (absolute, existing). */
  home: string;
}

/** A skill as the turn carries it. */
export interface ProjectedSkill {
  name: string;
  description: string;
  /** Where the model reads the skill's instructions with `read_file` (relative to the home). */
  skillFile: string;
  /** The MCP servers the skill brought into the home's mcporter config. */
  mcpServers: string[];
}

/** What `projectSkills` produced. */
export interface SkillProjection {
  /** Text for the turn's instructions: each skill's name, description and SKILL.md path; how to call MCP servers. Empty without skills. */
  instructions: string;
  /** The skills projected (those that could be copied into the home). */
  skills: ProjectedSkill[];
  /** What went wrong (a skill that could not be copied, a server name taken twice, an unreadable mcporter config). */
  problems: SkillProblem[];
  /** The home's mcporter config, when skills' MCP servers were written to it. */
  mcporterConfig: string | undefined;
}

/** The folder of the home the active skills are copied into. */
export const SKILLS_FOLDER = '.skills';
const WRITTEN_SERVERS_FILE = '.mcp-servers.json';
const STAGING_PREFIX = '.staging-';
const TRASH_PREFIX = '.trash-';

/**
 * Projects the agent's active skills into a turn:
 * - copies each skill's folder to `<home>/.skills/<name>/` (and removes copies of skills no longer active),
 *   so the model can read its `SKILL.md` with `read_file` only when it uses the skill;
 * - writes the MCP servers the skills declare into the home's mcporter config
 *   (`<home>/config/mcporter.json`), merged with the entries already there; servers written by an
 *   earlier projection and no longer declared are removed, others are left alone;
 * - returns the text for the turn's instructions: the skills' names, descriptions and SKILL.md paths,
 *   and how to call MCP servers with `mcporter call server.tool key=value` through the `command` tool.
 * Adds no tools. Problems are reported in `problems`, never thrown.
 * @throws UsageError (`home_invalid`) only when the home itself is unusable.
 */
export async function projectSkills(skills: readonly Skill[], options: ProjectSkillsOptions): Promise<SkillProjection> {
  const home = homeFolder(options.home);
  const problems: SkillProblem[] = [];
  const skillsRoot = path.join(home.realRoot, SKILLS_FOLDER);
  // Every change in the home goes through held folders and never follows a symlink (see held-entries.ts).
  const homeRoot = await openHomeFolder(home.realRoot, home.procFd);
  let skillsFolder: HeldFolder;
  try {
    skillsFolder = await ensureFolderAt(homeRoot, SKILLS_FOLDER);
  } catch (error) {
    problems.push({ path: skillsRoot, message: `The skills folder of the home could not be made: ${(error as Error).message}` });
    return { instructions: '', skills: [], problems, mcporterConfig: undefined };
  } finally {
    await closeFolders([homeRoot]);
  }
  const copied: Skill[] = [];
  const servers = new Map<string, { skill: string; definition: SkillMcpServer }>();
  let written: string | undefined;
  try {
    for (const skill of skills) {
      try {
        await copySkill(skill, skillsFolder);
        copied.push(skill);
      } catch (error) {
        problems.push({ path: skill.folder, name: skill.name, message: `The skill could not be copied into the home: ${(error as Error).message}` });
      }
    }
    await removeInactiveCopies(skillsFolder, skillsRoot, new Set(copied.map((skill) => skill.name)), problems);

    for (const skill of copied) {
      for (const [serverName, definition] of Object.entries(skill.mcpServers)) {
        const taken = servers.get(serverName);
        if (taken !== undefined) {
          problems.push({ path: skill.folder, name: skill.name, message: `MCP server "${serverName}" is already declared by skill "${taken.skill}"; that definition is kept.` });
          continue;
        }
        servers.set(serverName, { skill: skill.name, definition: withSkillDir(definition, path.join(skillsRoot, skill.name)) });
      }
    }
    written = await writeMcporterConfig(home, skillsFolder, servers, problems);
  } finally {
    await closeFolders([skillsFolder]);
  }

  const projected: ProjectedSkill[] = copied.map((skill) => ({
    name: skill.name,
    description: skill.description,
    skillFile: `${SKILLS_FOLDER}/${skill.name}/SKILL.md`,
    mcpServers: written === undefined ? [] : Object.keys(skill.mcpServers).filter((serverName) => servers.get(serverName)?.skill === skill.name),
  }));
  return { instructions: skillInstructions(projected), skills: projected, problems, mcporterConfig: written };
}

/** The instructions text for projected skills (empty without skills). */
export function skillInstructions(skills: readonly ProjectedSkill[]): string {
  if (skills.length === 0) return '';
  const lines = [
    '## Skills',
    'You have these skills. Each one has a SKILL.md in your home folder with its full instructions. When a task matches a skill, first read its SKILL.md with read_file, then follow it.',
    '',
  ];
  for (const skill of skills) {
    const mcp = skill.mcpServers.length === 0 ? '' : ` MCP servers: ${skill.mcpServers.join(', ')}.`;
    lines.push(`- ${skill.name}: ${skill.description} (instructions: ${skill.skillFile})${mcp}`);
  }
  if (skills.some((skill) => skill.mcpServers.length > 0)) {
    lines.push(
      '',
      'MCP servers are already configured in config/mcporter.json. Use them through the command tool with mcporter:',
      '- `mcporter list <server> --schema` shows the server\'s tools and their parameters;',
      '- `mcporter call <server>.<tool> key=value …` calls a tool (or `--args \'{"key": "value"}\'` for JSON arguments);',
      '- add `--output json` to get the raw result: `"isError": true` in it means the tool call failed, even when the exit code is 0.',
    );
  }
  return lines.join('\n');
}

/**
 * Copies a skill folder to `<skillsRoot>/<name>`: into a staging folder first, then swapped in by
 * renames, so a projection running at the same time into the same home (two turns of one agent)
 * never sees a half-copied or missing skill. When the other projection swapped its copy in between,
 * that copy (of the same folder) is kept.
 */
async function copySkill(skill: Skill, skillsFolder: HeldFolder): Promise<void> {
  const staging = `${STAGING_PREFIX}${skill.name}-${randomUUID()}`;
  const trash = `${TRASH_PREFIX}${skill.name}-${randomUUID()}`;
  try {
    await copyFolderInto(skill.folder, skillsFolder, staging);
    await renameAt(skillsFolder, skill.name, trash).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await renameAt(skillsFolder, staging, skill.name).catch((error: NodeJS.ErrnoException) => {
      // Another projection put its copy in place meanwhile: keep it.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
  } finally {
    await Promise.all([removeAt(skillsFolder, staging), removeAt(skillsFolder, trash)]);
  }
}

async function removeInactiveCopies(skillsFolder: HeldFolder, skillsRoot: string, active: ReadonlySet<string>, problems: SkillProblem[]): Promise<void> {
  const entries = await readFolder(skillsFolder).catch((error: unknown) => {
    problems.push({ path: skillsRoot, message: `The skills folder could not be read to remove inactive copies: ${(error as Error).message}` });
    return [];
  });
  for (const { name: entry } of entries) {
    // Dot entries are not skills: the ledger, and staging / trash folders of projections running now.
    if (entry.startsWith('.') || active.has(entry)) continue;
    await removeAt(skillsFolder, entry).catch((error: unknown) => {
      problems.push({ path: path.join(skillsRoot, entry), message: `The copy of an inactive skill could not be removed: ${(error as Error).message}` });
    });
  }
}

function withSkillDir(definition: SkillMcpServer, skillDir: string): SkillMcpServer {
  const fill = (value: string): string => value.split('${SKILL_DIR}').join(skillDir);
  const copy: SkillMcpServer = { ...definition };
  if (typeof copy.command === 'string') copy.command = fill(copy.command);
  else if (Array.isArray(copy.command)) copy.command = copy.command.map(fill);
  if (copy.args !== undefined) copy.args = copy.args.map(fill);
  if (copy.env !== undefined) copy.env = Object.fromEntries(Object.entries(copy.env).map(([key, value]) => [key, fill(value)]));
  if (typeof copy.url === 'string') copy.url = fill(copy.url);
  if (typeof copy.baseUrl === 'string') copy.baseUrl = fill(copy.baseUrl);
  return copy;
}

/** Merges the skills' servers into the home's mcporter config; returns its path, or undefined when it was left alone. */
async function writeMcporterConfig(
  home: HomeFolder,
  skillsFolder: HeldFolder,
  servers: ReadonlyMap<string, { definition: SkillMcpServer }>,
  problems: SkillProblem[],
): Promise<string | undefined> {
  const previous = await readTextAt(skillsFolder, WRITTEN_SERVERS_FILE).then(
    (text) => {
      const value = JSON.parse(text) as unknown;
      return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
    },
    () => [],
  );
  const configFile = mcporterConfigPath(home.realRoot);
  if (servers.size === 0 && previous.length === 0) return undefined;
  try {
    // Read and replaced relative to its held folder: a symlink leading out of the home is refused, not followed.
    return await walkInHome(home, path.relative(home.realRoot, configFile), {
      createFolders: true,
      self: () => Promise.reject(new Error('the config path is a folder')),
      last: async (parent, name) => {
        let config: Record<string, unknown> = { mcpServers: {}, imports: [] };
        let text: string | undefined;
        try {
          text = await readTextAt(parent, name);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
        if (text !== undefined) {
          try {
            const existing = JSON.parse(text) as unknown;
            if (typeof existing !== 'object' || existing === null || Array.isArray(existing)) throw new Error('its root is not an object');
            config = existing as Record<string, unknown>;
          } catch (error) {
            problems.push({ path: configFile, message: `The home's mcporter config is not valid JSON (${(error as Error).message}); it was left alone and the skills' MCP servers were not added.` });
            return undefined;
          }
        }
        const current = config.mcpServers;
        const merged: Record<string, unknown> = typeof current === 'object' && current !== null && !Array.isArray(current) ? { ...current } : {};
        for (const serverName of previous) if (!servers.has(serverName)) delete merged[serverName];
        for (const [serverName, { definition }] of servers) merged[serverName] = definition;
        await writeFileAtomicAt(parent, name, `${JSON.stringify({ ...config, mcpServers: merged }, null, 2)}\n`);
        await writeFileAtomicAt(skillsFolder, WRITTEN_SERVERS_FILE, `${JSON.stringify([...servers.keys()])}\n`);
        return path.join(home.realRoot, parent.relative, name);
      },
    });
  } catch (error) {
    problems.push({ path: configFile, message: `The home's mcporter config could not be written: ${(error as Error).message}` });
    return undefined;
  }
}
