import { z } from 'zod';
import { ToolDefinitionError } from '../errors.js';
import { toolParameters } from '../schema/tool-parameters.js';
import type { JSONObject } from '../json.js';
import { findProtoKeyProperties } from '../schema/proto-key-schema.js';
import type { AnyWorkerAgentTool, ExecutionMode, JsonSchemaWorkerToolDefinition, WorkerAgentTool, ZodWorkerToolDefinition } from './worker-agent-tool.js';

/** The names the Responses API accepts for functions and namespaces. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const EXECUTION_MODES: readonly ExecutionMode[] = ['parallel', 'sequential'];

/**
 * Builds a frozen `WorkerAgentTool` from its definition, filling defaults (`strict: false`, `executionMode:
 * 'sequential'`, `deferLoading`, `isReadOnly`, `isDestructive`: false; `eagerStart`: `isReadOnly`) and checking it once, here: the name and the
 * namespace (`^[a-zA-Z0-9_-]{1,64}$`), the description, the functions, and that the schema can be sent
 * (`toolParameters`: an object root, convertible, strict-mode compatible when `strict`). `execute`,
 * `describeActivity` and `describeCompletedActivity` receive `z.output` of the schema (`Record<string, unknown>`
 * for `jsonSchema` tools).
 * @throws ToolDefinitionError when the definition cannot be used (the message names the tool and, for schema
 *   problems, the JSON path; `code` is `tool_name_invalid`, `tool_schema_invalid`, `tool_schema_not_strict` or
 *   `tool_definition_invalid`).
 */
export function defineWorkerTool<TSchema extends z.ZodType, TDetails = unknown>(
  definition: ZodWorkerToolDefinition<TSchema, TDetails>,
): WorkerAgentTool<z.output<TSchema>, TDetails>;
export function defineWorkerTool<TDetails = unknown>(definition: JsonSchemaWorkerToolDefinition<TDetails>): WorkerAgentTool<Record<string, unknown>, TDetails>;
export function defineWorkerTool(definition: ZodWorkerToolDefinition<z.ZodType, unknown> | JsonSchemaWorkerToolDefinition<unknown>): AnyWorkerAgentTool {
  const name = checkName(definition.name);
  if (typeof definition.description !== 'string' || definition.description.trim() === '') {
    throw new ToolDefinitionError(name, 'description must be a non-empty string.');
  }
  if (definition.namespace !== undefined && !TOOL_NAME_PATTERN.test(definition.namespace)) {
    throw new ToolDefinitionError(name, `namespace "${definition.namespace}" must match ${TOOL_NAME_PATTERN}.`);
  }
  const executionMode = definition.executionMode ?? 'sequential';
  if (!EXECUTION_MODES.includes(executionMode)) {
    throw new ToolDefinitionError(name, `executionMode must be "parallel" or "sequential", got ${JSON.stringify(executionMode)}.`);
  }
  if (definition.timeoutMs !== undefined && !(Number.isFinite(definition.timeoutMs) && definition.timeoutMs > 0)) {
    throw new ToolDefinitionError(name, `timeoutMs must be a positive number, got ${String(definition.timeoutMs)}.`);
  }
  if (typeof definition.execute !== 'function') throw new ToolDefinitionError(name, 'execute must be a function.');
  if (typeof definition.describeActivity !== 'function') {
    throw new ToolDefinitionError(name, 'describeActivity must be a function.');
  }
  if (definition.describeCompletedActivity !== undefined && typeof definition.describeCompletedActivity !== 'function') {
    throw new ToolDefinitionError(name, 'describeCompletedActivity must be a function when given.');
  }
  if (definition.needsApproval !== undefined && typeof definition.needsApproval !== 'boolean' && typeof definition.needsApproval !== 'function') {
    throw new ToolDefinitionError(name, 'needsApproval must be a boolean or a function of the params when given.');
  }
  if (definition.eagerStart !== undefined && typeof definition.eagerStart !== 'boolean') {
    throw new ToolDefinitionError(name, `eagerStart must be a boolean when given, got ${JSON.stringify(definition.eagerStart)}.`);
  }
  if (definition.namespaceDescription !== undefined && typeof definition.namespaceDescription !== 'string') {
    throw new ToolDefinitionError(name, 'namespaceDescription must be a string when given.');
  }
  if (definition.schema !== undefined && !isZodSchema(definition.schema)) {
    throw new ToolDefinitionError(name, 'schema must be a Zod schema (z.object({...})); for a plain JSON Schema use jsonSchema.');
  }
  if (
    definition.jsonSchema !== undefined &&
    (typeof definition.jsonSchema !== 'object' || definition.jsonSchema === null || Array.isArray(definition.jsonSchema))
  ) {
    throw new ToolDefinitionError(name, 'jsonSchema must be a JSON Schema object ({ "type": "object", ... }).', { path: '$', code: 'tool_schema_invalid' });
  }
  const schema = definition.schema ?? (definition.jsonSchema === undefined ? undefined : z.record(z.string(), z.unknown()));
  if (schema === undefined) throw new ToolDefinitionError(name, 'either schema (Zod) or jsonSchema is required.');

  const tool: AnyWorkerAgentTool = Object.freeze({
    name,
    description: definition.description,
    schema,
    jsonSchema: definition.jsonSchema,
    strict: definition.strict ?? false,
    namespace: definition.namespace,
    namespaceDescription: definition.namespaceDescription,
    deferLoading: definition.deferLoading ?? false,
    executionMode,
    isReadOnly: definition.isReadOnly ?? false,
    isDestructive: definition.isDestructive ?? false,
    eagerStart: definition.eagerStart ?? definition.isReadOnly === true,
    needsApproval: (definition.needsApproval ?? (definition.isDestructive === true && definition.isReadOnly !== true)) as AnyWorkerAgentTool['needsApproval'],
    timeoutMs: definition.timeoutMs,
    describeActivity: definition.describeActivity as AnyWorkerAgentTool['describeActivity'],
    describeCompletedActivity: definition.describeCompletedActivity as AnyWorkerAgentTool['describeCompletedActivity'],
    execute: definition.execute as AnyWorkerAgentTool['execute'],
  });
  // Convert (and, for strict tools, check) the schema now, so a bad schema fails at definition time.
  const parameters = toolParameters(tool);
  if (definition.schema !== undefined) refuseProtoKeyProperties(name, parameters.original ?? parameters.parameters);
  return tool;
}

/**
 * A Zod schema that declares a property named "__proto__": Zod drops that key from every value it parses, so the tool
 * could never receive it.
 * @throws ToolDefinitionError (`tool_schema_invalid`) naming where.
 */
function refuseProtoKeyProperties(name: string, parameters: JSONObject): void {
  const [path] = findProtoKeyProperties(parameters);
  if (path === undefined) return;
  throw new ToolDefinitionError(
    name,
    `the schema declares a property named "__proto__" at ${path === '$' ? 'its root' : path}: Zod drops that key from every value it parses, so ` +
      'the tool could never receive it. Rename the property, or define the tool with jsonSchema (which validates that key like any other and keeps it).',
    { path: `${path}.properties.__proto__`, code: 'tool_schema_invalid' },
  );
}

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && typeof (value as { safeParse?: unknown }).safeParse === 'function' && '_zod' in value;
}

function checkName(name: unknown): string {
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    throw new ToolDefinitionError(String(name), `name must match ${TOOL_NAME_PATTERN} (letters, digits, "_" and "-", 1 to 64 characters).`, {
      code: 'tool_name_invalid',
    });
  }
  return name;
}
