import type { JSONObject } from './json.js';
import type { AnyWorkerAgentTool } from './worker-agent-tool.js';

/** The `parameters` and `strict` fields a tool is sent with, and what validation needs to undo the strict transform. */
export interface ToolParameters {
  /** The JSON Schema sent as the function's `parameters`. */
  parameters: JSONObject;
  /** The `strict` flag sent with it. */
  strict: boolean;
  /** For strict Zod tools: the schema before the strict transform (used to strip the synthetic `null`s). */
  original?: JSONObject;
}

/**
 * The parameters a tool is sent with: `jsonSchema` unchanged, or the Zod schema converted (and made strict
 * when `strict`). Memoised per tool object.
 * @throws ToolDefinitionError when the schema cannot be sent (root not an object, strict-incompatible keyword).
 */
export function toolParameters(tool: AnyWorkerAgentTool): ToolParameters {
  // TODO(runtime-schema helper): implement with zodToJSONSchema + strict transform, memoised in a WeakMap.
  return { parameters: tool.jsonSchema ?? { type: 'object', properties: {} }, strict: tool.strict };
}
