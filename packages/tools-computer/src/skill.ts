/**
 * An MCP server a skill declares, in mcporter's config format (`command` + `args` + `env` for a stdio
 * server, or `url` / `baseUrl` for an HTTP one; other mcporter fields pass through). In `command`,
 * `args`, `env` values, `url` and `baseUrl`, `${SKILL_DIR}` is replaced by the absolute path of the
 * skill's copy in the home.
 */
export interface SkillMcpServer {
  command?: string | string[];
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  baseUrl?: string;
  description?: string;
  [field: string]: unknown;
}

/** A skill loaded from a folder holding a `SKILL.md`. */
export interface Skill {
  /** From the front matter: `^[a-zA-Z0-9_-]{1,64}$`, unique among the active skills. */
  name: string;
  /** From the front matter: when to use the skill (one paragraph). */
  description: string;
  /** The skill's folder (absolute). */
  folder: string;
  /** The body of `SKILL.md` after the front matter: the skill's instructions. */
  instructions: string;
  /** MCP servers the skill uses through mcporter, by server name (`^[a-zA-Z0-9_-]{1,64}$`). */
  mcpServers: Record<string, SkillMcpServer>;
}

/** Why a skill was skipped (or what went wrong projecting it). */
export interface SkillProblem {
  /** The skill's folder (or the file concerned). */
  path: string;
  /** The skill's name, when it was read. */
  name?: string;
  message: string;
}

/** Names of skills and of their MCP servers. */
export const SKILL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
