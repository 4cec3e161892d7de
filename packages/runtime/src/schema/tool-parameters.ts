import { SchemaConversionError, StrictSchemaError, ToolDefinitionError } from '../errors.js';
import { deepFreeze, isJSONObject } from '../json.js';
import type { JSONObject } from '../json.js';
import { checkStrictSchema, toStrictJSONSchema } from './strict-json-schema.js';
import { samePayload, toolPayloadSnapshot, type ToolPayloadSnapshot } from './tool-payload-snapshot.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';
import { zodToJSONSchema } from './zod-to-json-schema.js';

/** The `parameters` and `strict` fields a tool is sent with, and what validation needs to undo the strict transform. */
export interface ToolParameters {
  /** The JSON Schema sent as the function's `parameters`. */
  parameters: JSONObject;
  /** The `strict` flag sent with it. */
  strict: boolean;
  /** For strict Zod tools: the schema before the strict transform (used to strip the synthetic `null`s). */
  original?: JSONObject;
}

/*
 * Memo: one result per tool object, with what it was made of when the tool could change (tools made by
 * `defineWorkerTool` are frozen: theirs cannot go stale). A WeakMap keeps nothing alive.
 */
const computed = new WeakMap<AnyWorkerAgentTool, { result: ToolParameters; snapshot: ToolPayloadSnapshot }>();

/**
 * The parameters a tool is sent with. Memoised per tool object (made again when a tool that is not frozen changed a
 * field it depends on); the result is frozen (do not modify it).
 *
 * - `jsonSchema` tools: that schema, unchanged (the same object), with the tool's `strict` flag. When `strict` is
 *   true the schema must already be strict-mode compatible (see `checkStrictSchema`): it is checked, never rewritten.
 * - Zod tools: `zodToJSONSchema(tool.schema)`; when `strict` is true, made strict (`toStrictJSONSchema`) and the
 *   schema before the transform returned as `original`, so validation can strip the synthetic `null`s.
 *
 * @throws ToolDefinitionError naming the tool (and the JSON path) when the schema cannot be sent: the root is not an
 *   object (`code: 'tool_schema_invalid'`), the Zod schema cannot be converted (`tool_schema_invalid`, the
 *   `SchemaConversionError` as `cause`), or strict mode cannot express it (`tool_schema_not_strict`, the
 *   `StrictSchemaError` as `cause`).
 */
export function toolParameters(tool: AnyWorkerAgentTool): ToolParameters {
  const cached = computed.get(tool);
  if (cached !== undefined && samePayload(tool, cached.snapshot)) return cached.result;
  const snapshot = toolPayloadSnapshot(tool);
  const result = tool.jsonSchema === undefined ? fromZod(tool) : fromJsonSchema(tool, tool.jsonSchema);
  computed.set(tool, { result, snapshot });
  return result;
}

function fromJsonSchema(tool: AnyWorkerAgentTool, jsonSchema: JSONObject): ToolParameters {
  if (!isJSONObject(jsonSchema) || jsonSchema['type'] !== 'object') {
    const found = isJSONObject(jsonSchema) ? JSON.stringify(jsonSchema['type'] ?? null) : typeof jsonSchema;
    throw new ToolDefinitionError(tool.name, `jsonSchema must be an object schema ({ "type": "object", ... }), got type ${found}.`, {
      path: '$',
      code: 'tool_schema_invalid',
    });
  }
  if (tool.strict) {
    const issues = checkStrictSchema(jsonSchema);
    if (issues.length > 0)
      throw notStrict(tool, new StrictSchemaError(issues), 'A jsonSchema is sent unchanged, so with strict: true it must already be strict-mode compatible');
  }
  // Sent unchanged: the very object the adapter gave (not copied, not frozen: it is the adapter's).
  return Object.freeze({ parameters: jsonSchema, strict: tool.strict });
}

function fromZod(tool: AnyWorkerAgentTool): ToolParameters {
  let converted: JSONObject;
  try {
    converted = zodToJSONSchema(tool.schema);
  } catch (error) {
    if (!(error instanceof SchemaConversionError)) throw error;
    throw new ToolDefinitionError(tool.name, error.message, { path: '$', code: 'tool_schema_invalid', cause: error });
  }
  if (!tool.strict) return Object.freeze({ parameters: converted, strict: false });
  let parameters: JSONObject;
  try {
    parameters = toStrictJSONSchema(converted);
  } catch (error) {
    if (!(error instanceof StrictSchemaError)) throw error;
    throw notStrict(tool, error);
  }
  return Object.freeze({ parameters: deepFreeze(parameters), strict: true, original: converted });
}

function notStrict(tool: AnyWorkerAgentTool, error: StrictSchemaError, advice?: string): ToolDefinitionError {
  const [first, ...rest] = error.issues;
  const others =
    rest.length === 0
      ? ''
      : ` Also at ${rest
          .slice(0, 5)
          .map((issue) => issue.path)
          .join(', ')}${rest.length > 5 ? ', ...' : ''} (see cause.issues).`;
  const note = advice === undefined ? '' : ` ${advice}.`;
  return new ToolDefinitionError(tool.name, `strict: true but ${first?.message ?? 'the schema is not strict-mode compatible.'}${others}${note}`, {
    path: error.path,
    code: 'tool_schema_not_strict',
    cause: error,
  });
}
