import { z } from 'zod';
import { ToolDefinitionError } from './errors.js';
import { toolParameters } from './tool-parameters.js';
import type {
  AnyWorkerAgentTool,
  ExecutionMode,
  JsonSchemaWorkerToolDefinition,
  WorkerAgentTool,
  ZodWorkerToolDefinition,
} from './worker-agent-tool.js';

/** The names the Responses API accepts for functions and namespaces. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

const EXECUTION_MODES: readonly ExecutionMode[] = ['parallel', 'sequential'];
const anyObject = z.record(z.string(), z.unknown());

/**
 * Builds a `WorkerAgentTool` from its definition, filling defaults and checking it once, here:
 * the name, the namespace, and that the schema can be sent (strict-mode compatible when `strict`).
 * @throws ToolDefinitionError when the definition cannot be used (the message names the tool and the JSON path).
 */
export function defineWorkerTool<TSchema extends z.ZodType, TDetails = unknown>(
  definition: ZodWorkerToolDefinition<TSchema, TDetails>,
): WorkerAgentTool<z.output<TSchema>, TDetails>;
export function defineWorkerTool<TDetails = unknown>(
  definition: JsonSchemaWorkerToolDefinition<TDetails>,
): WorkerAgentTool<Record<string, unknown>, TDetails>;
export function defineWorkerTool(
  definition: ZodWorkerToolDefinition<z.ZodType, unknown> | JsonSchemaWorkerToolDefinition<unknown>,
): AnyWorkerAgentTool {
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
  const schema = definition.schema ?? (definition.jsonSchema === undefined ? undefined : anyObject);
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
    timeoutMs: definition.timeoutMs,
    describeActivity: definition.describeActivity as AnyWorkerAgentTool['describeActivity'],
    describeCompletedActivity: definition.describeCompletedActivity as AnyWorkerAgentTool['describeCompletedActivity'],
    execute: definition.execute as AnyWorkerAgentTool['execute'],
  });
  // Convert (and, for strict tools, check) the schema now, so a bad schema fails at definition time.
  toolParameters(tool);
  return tool;
}

function checkName(name: unknown): string {
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    throw new ToolDefinitionError(String(name), `name must match ${TOOL_NAME_PATTERN} (letters, digits, "_" and "-", 1 to 64 characters).`, {
      code: 'tool_name_invalid',
    });
  }
  return name;
}
