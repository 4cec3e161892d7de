import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';

/** The fields of a tool its Responses payload (its function entry, its namespace's entry, its parameters) is made of. */
const PAYLOAD_FIELDS = ['name', 'description', 'strict', 'deferLoading', 'schema', 'jsonSchema', 'namespace', 'namespaceDescription'] as const;

/**
 * What a memo of a tool's payload keeps to tell whether it is still right: `undefined` for a tool whose payload fields
 * cannot change (frozen, each field an own data property: what `defineWorkerTool` makes), else their current values.
 */
export type ToolPayloadSnapshot = readonly unknown[] | undefined;

export function toolPayloadSnapshot(tool: AnyWorkerAgentTool): ToolPayloadSnapshot {
  if (Object.isFrozen(tool) && PAYLOAD_FIELDS.every((field) => isOwnData(tool, field))) return undefined;
  return PAYLOAD_FIELDS.map((field) => tool[field]);
}

/** Whether the payload fields of `tool` are still those of `snapshot` (always, for a tool that cannot change). */
export function samePayload(tool: AnyWorkerAgentTool, snapshot: ToolPayloadSnapshot): boolean {
  if (snapshot === undefined) return true;
  for (let index = 0; index < PAYLOAD_FIELDS.length; index += 1) {
    if (!Object.is(tool[PAYLOAD_FIELDS[index] as (typeof PAYLOAD_FIELDS)[number]], snapshot[index])) return false;
  }
  return true;
}

function isOwnData(tool: object, field: string): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(tool, field);
  return descriptor !== undefined && 'value' in descriptor;
}
