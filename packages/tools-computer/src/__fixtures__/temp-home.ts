import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AgentToolResult, AnyWorkerAgentTool } from '@core/runtime';

/** A fresh temp folder; `dispose()` removes it. */
export async function tempDir(prefix = 'ankole-computer-'): Promise<{ path: string; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { path: dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** Runs a tool the way dispatch would: parse the params with its schema, then execute. */
export async function callTool(tool: AnyWorkerAgentTool, params: unknown, signal: AbortSignal = new AbortController().signal): Promise<AgentToolResult<any>> {
  const parsed = tool.schema.parse(params);
  return tool.execute(parsed, { signal, callId: 'call_1', toolName: tool.name });
}

/** The tool of that name. */
export function toolNamed(tools: readonly AnyWorkerAgentTool[], name: string): AnyWorkerAgentTool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool;
}

/** The text of a result's content. */
export function textOf(result: AgentToolResult<unknown>): string {
  if (typeof result.content === 'string') return result.content;
  return result.content.map((part) => (part.type === 'input_text' ? part.text : `[image ${part.image_url.slice(0, 30)}]`)).join('\n');
}


