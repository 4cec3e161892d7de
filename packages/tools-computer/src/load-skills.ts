import { promises as fs } from 'node:fs';
import path from 'node:path';
import { SKILL_NAME_PATTERN, type Skill, type SkillMcpServer, type SkillProblem } from './skill.js';

/** What `loadSkills` found. */
export interface LoadedSkills {
  /** The valid skills, in the order found (folders sorted by name). */
  skills: Skill[];
  /** The skipped skills, each with what was wrong. */
  problems: SkillProblem[];
}

const MAX_DESCRIPTION = 1024;

/**
 * Loads skills from folders. Each folder is either a skill (it holds a `SKILL.md`) or a folder of
 * skills (its sub-folders hold one each). `SKILL.md` starts with YAML front matter between `---`
 * lines holding at least `name` and `description`, and optionally `mcpServers` (mcporter server
 * definitions); the rest is the skill's instructions. Malformed skills are listed in `problems` and
 * skipped; a later skill with an already used name is skipped too. Never throws.
 */
export async function loadSkills(folders: readonly string[]): Promise<LoadedSkills> {
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [];
  const names = new Set<string>();
  for (const folder of folders) {
    for (const candidate of await skillFolders(path.resolve(folder), problems)) {
      const loaded = await loadSkill(candidate);
      if ('message' in loaded) {
        problems.push(loaded);
        continue;
      }
      if (names.has(loaded.name)) {
        problems.push({ path: candidate, name: loaded.name, message: `Another skill is already named "${loaded.name}"; this one is skipped.` });
        continue;
      }
      names.add(loaded.name);
      skills.push(loaded);
    }
  }
  return { skills, problems };
}

async function skillFolders(folder: string, problems: SkillProblem[]): Promise<string[]> {
  try {
    if (await isFile(path.join(folder, 'SKILL.md'))) return [folder];
    const entries = await fs.readdir(folder, { withFileTypes: true });
    const found: string[] = [];
    for (const entry of entries.filter((item) => item.isDirectory() && !item.name.startsWith('.')).sort((a, b) => a.name.localeCompare(b.name))) {
      const child = path.join(folder, entry.name);
      if (await isFile(path.join(child, 'SKILL.md'))) found.push(child);
      else problems.push({ path: child, message: 'This folder holds no SKILL.md; it is not a skill.' });
    }
    return found;
  } catch (error) {
    problems.push({ path: folder, message: `The skills folder cannot be read: ${(error as Error).message}` });
    return [];
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Loads one skill folder, or says what is wrong with it. */
export async function loadSkill(folder: string): Promise<Skill | SkillProblem> {
  const file = path.join(folder, 'SKILL.md');
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    return { path: file, message: `SKILL.md cannot be read: ${(error as Error).message}` };
  }
  const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (match === null) {
    return { path: file, message: 'SKILL.md must start with YAML front matter between two "---" lines, holding name and description.' };
  }
  // The YAML parser is loaded with the first skill, not with the package (a turn without skills never needs it).
  const { parseDocument } = await import('yaml');
  const document = parseDocument(match[1] ?? '', { prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    return { path: file, message: `The front matter is not valid YAML: ${document.errors[0]?.message.split('\n')[0] ?? 'parse error'}` };
  }
  const data: unknown = document.toJS();
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { path: file, message: 'The front matter must be a YAML mapping with name and description.' };
  }
  const fields = data as Record<string, unknown>;
  const name = fields.name;
  if (typeof name !== 'string' || !SKILL_NAME_PATTERN.test(name)) {
    return { path: file, message: `The front matter needs a name matching ${SKILL_NAME_PATTERN} (letters, digits, "_" and "-"), got ${JSON.stringify(name ?? null)}.` };
  }
  const description = fields.description;
  if (typeof description !== 'string' || description.trim() === '') {
    return { path: file, name, message: 'The front matter needs a non-empty description (a string saying when to use the skill).' };
  }
  if (description.length > MAX_DESCRIPTION) {
    return { path: file, name, message: `The description is ${description.length} characters; keep it to ${MAX_DESCRIPTION} at most (details go in the body).` };
  }
  const servers = checkMcpServers(fields.mcpServers);
  if (typeof servers === 'string') return { path: file, name, message: servers };
  return { name, description: description.trim().replace(/\s+/g, ' '), folder, instructions: text.slice(match[0].length).trim(), mcpServers: servers };
}

function checkMcpServers(value: unknown): Record<string, SkillMcpServer> | string {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) return 'mcpServers must be a mapping from server names to mcporter server definitions.';
  const servers: Record<string, SkillMcpServer> = {};
  for (const [serverName, definition] of Object.entries(value as Record<string, unknown>)) {
    if (!SKILL_NAME_PATTERN.test(serverName)) return `The MCP server name "${serverName}" must match ${SKILL_NAME_PATTERN} (it is used as "mcporter call ${serverName}.tool").`;
    if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) return `mcpServers.${serverName} must be a mapping (command/args/env or url).`;
    const entry = definition as Record<string, unknown>;
    const command = entry.command;
    const hasCommand = typeof command === 'string' ? command.trim() !== '' : Array.isArray(command) && command.length > 0 && command.every((part) => typeof part === 'string');
    const hasUrl = typeof entry.url === 'string' || typeof entry.baseUrl === 'string';
    if (!hasCommand && !hasUrl) return `mcpServers.${serverName} needs a command (stdio server) or a url (HTTP server).`;
    if (entry.args !== undefined && !(Array.isArray(entry.args) && entry.args.every((arg) => typeof arg === 'string'))) {
      return `mcpServers.${serverName}.args must be a list of strings.`;
    }
    if (entry.env !== undefined && (typeof entry.env !== 'object' || entry.env === null || Object.values(entry.env).some((item) => typeof item !== 'string'))) {
      return `mcpServers.${serverName}.env must be a mapping of strings.`;
    }
    servers[serverName] = entry as SkillMcpServer;
  }
  return servers;
}
