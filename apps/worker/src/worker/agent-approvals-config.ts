import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { type ApprovalRequest, UsageError } from '@core/runtime';
import { z } from 'zod';

/** The per-tool approval lists of an agent's config: tools (`name` or `namespace.name`) always allowed or always denied. */
export interface ApprovalRules {
  allow: string[];
  deny: string[];
  /** Background work (`ankole worker`) only: tools whose calls are held for a person. */
  hold: string[];
  /** Background work only: what happens to calls needing approval of tools in no list (default `hold`: a person decides). */
  background: 'allow' | 'deny' | 'hold';
}

// Built at the first read of an agent config that exists, not at load.
let configSchema: ReturnType<typeof buildConfigSchema> | undefined;

function buildConfigSchema() {
  return z.object({
    approvals: z
      .object({
        allow: z.array(z.string()).default([]),
        deny: z.array(z.string()).default([]),
        hold: z.array(z.string()).default([]),
        background: z.enum(['allow', 'deny', 'hold']).default('hold'),
      })
      .optional(),
  });
}

/**
 * The path of an agent's config: `$XDG_CONFIG_HOME/ankole/agents/<agent>.json` (else `~/.config/…`). It lives outside
 * the agent home on purpose: the agent's own tools cannot grant themselves approvals.
 */
export function agentConfigPath(agent: string, env: Readonly<Record<string, string | undefined>>): string {
  const configHome = env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : path.join(homedir(), '.config');
  return path.join(configHome, 'ankole', 'agents', `${agent}.json`);
}

/**
 * Reads the `approvals` lists of an agent's config (`{ "approvals": { "allow": [...], "deny": [...] } }`); none when
 * the file does not exist.
 * @throws UsageError (`agent_config_invalid`) when the file is not JSON of that shape.
 */
export async function readApprovalRules(agent: string, env: Readonly<Record<string, string | undefined>>): Promise<ApprovalRules> {
  const file = agentConfigPath(agent, env);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { allow: [], deny: [], hold: [], background: 'hold' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError('agent_config_invalid', `The agent config ${file} is not JSON: fix it or remove it.`);
  }
  configSchema ??= buildConfigSchema();
  const parsed = configSchema.safeParse(value);
  if (!parsed.success) {
    throw new UsageError('agent_config_invalid', `The agent config ${file} is not valid: "approvals" must be { "allow": [tool names], "deny": [tool names], "hold": [tool names], "background": "allow" | "deny" | "hold" }.`);
  }
  const approvals = parsed.data.approvals;
  return { allow: approvals?.allow ?? [], deny: approvals?.deny ?? [], hold: approvals?.hold ?? [], background: approvals?.background ?? 'hold' };
}

/** The name a tool is listed under in the approval lists: `namespace.name` or `name`. */
export function listedName(request: Pick<ApprovalRequest, 'toolName' | 'namespace'>): string {
  return request.namespace === undefined ? request.toolName : `${request.namespace}.${request.toolName}`;
}
