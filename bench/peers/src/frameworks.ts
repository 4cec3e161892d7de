// The frameworks measured, loaded on demand so that `--only ours` loads no peer.
import type { Adapter } from './adapter.js';

export interface Framework {
  /** The name used with --only. */
  key: string;
  aliases: string[];
  load(): Promise<Adapter>;
}

export const FRAMEWORKS: Framework[] = [
  { key: 'ours', aliases: ['ankole', '@core/runtime'], load: async () => (await import('./adapters/ours.js')).createOursAdapter() },
  {
    key: 'pi',
    aliases: ['pi-agent-core', '@mariozechner/pi-agent-core'],
    load: async () => (await import('./adapters/pi-agent-core.js')).createPiAgentCoreAdapter(),
  },
  { key: 'ai', aliases: ['vercel', 'ai-sdk'], load: async () => (await import('./adapters/ai-sdk.js')).createAiSdkAdapter() },
  {
    key: 'agents',
    aliases: ['openai-agents', '@openai/agents'],
    load: async () => (await import('./adapters/openai-agents.js')).createOpenAIAgentsAdapter(),
  },
];

/** The frameworks named in a comma-separated `--only` value (all when undefined). */
export function selectFrameworks(only: string | undefined): Framework[] {
  if (only === undefined) return FRAMEWORKS;
  const wanted = only.split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
  const selected: Framework[] = [];
  for (const name of wanted) {
    const framework = FRAMEWORKS.find((entry) => entry.key === name || entry.aliases.includes(name));
    if (framework === undefined) {
      throw new Error(`--only: unknown framework "${name}"; known: ${FRAMEWORKS.map((entry) => entry.key).join(', ')}`);
    }
    if (!selected.includes(framework)) selected.push(framework);
  }
  return selected;
}
