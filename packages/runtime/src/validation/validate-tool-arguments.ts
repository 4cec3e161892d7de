import { coerceToSchema } from '../repair/coerce-to-schema.js';
import { describeThrown } from '../describe-thrown.js';
import { formatIssuesMessage, formatUnreadableMessage } from './format-validation-message.js';
import type { ValidationIssue } from './format-validation-message.js';
import { compileJsonSchema, type CompiledJsonSchema } from './json-schema-validator.js';
import type { JSONObject } from '../json.js';
import { parseArgumentsJson } from '../repair/parse-arguments-json.js';
import { keepProtoKeys, mayHoldProtoKey } from './proto-keys.js';
import { withoutSyntheticNulls } from '../schema/strip-synthetic-nulls.js';
import { toolParameters } from '../schema/tool-parameters.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';
import type { ArgumentRepair } from '../repair/argument-repair.js';
import { zodValidationIssues } from './zod-validation-issues.js';

export type { ArgumentRepair } from '../repair/argument-repair.js';

/** The result of `validateToolArguments`. */
export type ValidationResult<TParams = unknown> = { ok: true; params: TParams; repairs: ArgumentRepair[] } | { ok: false; message: string };

type Attempt = { ok: true; params: unknown; input: unknown } | { ok: false; issues: ValidationIssue[]; checked: unknown };

const MAX_LOGGED_COERCIONS = 10;

/**
 * Parses and validates a model's argument string against a tool's schema, repairing malformed input through a
 * bounded ladder, cheapest and safest first: plain `JSON.parse`; one object out of a code fence or prose; cut-off
 * input closed keeping only what was complete; syntax repair (jsonrepair); then, when the object fails the
 * schema, schema-guided coercion against the JSON Schema the tool is sent with. Valid JSON is never rewritten.
 *
 * For strict tools the synthetic `null`s of the strict transform are removed before Zod parses (protocol, not a
 * repair: not listed in `repairs`). `jsonSchema` tools are validated with Ajv against that schema, then with the
 * tool's Zod `schema`. `params` is Zod's output.
 *
 * Input over 1 MiB (UTF-8) or nested deeper than 512 is refused. On failure, `message` is written for the model:
 * what was wrong, at which JSON path, and a capped prefix of what was received.
 * Never throws, never hangs: every rung is bounded and linear-ish in the input.
 */
export function validateToolArguments<TParams>(tool: AnyWorkerAgentTool, argumentsText: string): ValidationResult<TParams> {
  try {
    return validate(tool, argumentsText) as ValidationResult<TParams>;
  } catch (error) {
    // A tool's own Zod code (a refine or transform) may throw anything; the answer must still be a value.
    const problem = `the arguments could not be validated (${describeThrown(error)}).`;
    try {
      return {
        ok: false,
        message: formatUnreadableMessage({ toolName: toolName(tool), problem, argumentsText: typeof argumentsText === 'string' ? argumentsText : undefined }),
      };
    } catch {
      return { ok: false, message: `Invalid arguments: ${problem} Fix the arguments and call the tool again.` };
    }
  }
}

function validate(tool: AnyWorkerAgentTool, argumentsText: string): ValidationResult {
  if (typeof argumentsText !== 'string') {
    return {
      ok: false,
      message: formatUnreadableMessage({
        toolName: tool.name,
        problem: `the arguments must be a JSON string, got ${typeof argumentsText}.`,
        argumentsText: undefined,
      }),
    };
  }
  const parsed = parseArgumentsJson(argumentsText);
  if (!parsed.ok) return { ok: false, message: formatUnreadableMessage({ toolName: tool.name, problem: parsed.problem, argumentsText }) };

  const jsonSchema = tool.jsonSchema === undefined ? undefined : compileJsonSchema(tool.jsonSchema);
  if (jsonSchema !== undefined && !jsonSchema.ok) {
    return {
      ok: false,
      message: formatUnreadableMessage({
        toolName: tool.name,
        problem: `the tool's JSON Schema cannot be used (${jsonSchema.message}); this is a tool definition problem, not an argument problem.`,
        argumentsText: undefined,
      }),
    };
  }
  // A value read by plain `JSON.parse` (no repair) holds a `null` only where its text says `null`: without one,
  // there is nothing for the strict transform's stripping to remove.
  const strip = tool.strict && (parsed.repairs.length > 0 || argumentsText.includes('null'));
  const first = attempt(tool, parsed.value, strip ? strictOriginal(tool) : undefined, jsonSchema);
  if (first.ok) return withProtoKeys(tool, argumentsText, first, parsed.repairs);

  // Rung 5: schema-guided coercion against the schema the model was shown.
  const coercion = coerceToSchema(first.checked, coercionSchema(tool));
  if (coercion.changes.length > 0) {
    const second = attempt(tool, coercion.value, tool.strict ? strictOriginal(tool) : undefined, jsonSchema);
    if (second.ok) {
      const shown = coercion.changes.slice(0, MAX_LOGGED_COERCIONS);
      if (coercion.changes.length > shown.length) shown.push(`… and ${coercion.changes.length - shown.length} more`);
      return withProtoKeys(tool, argumentsText, second, [...parsed.repairs, { kind: 'coerced', detail: shown.join('; ') }]);
    }
  }
  return {
    ok: false,
    message: formatIssuesMessage({
      toolName: tool.name,
      issues: first.issues,
      value: first.checked,
      argumentsText,
      note: parsed.truncated ? 'The arguments were cut off; only their complete part was checked. Send the complete arguments.' : undefined,
    }),
  };
}

/** For a strict Zod tool: its schema before the strict transform (where the synthetic nulls are read from). */
function strictOriginal(tool: AnyWorkerAgentTool): JSONObject | undefined {
  return toolParameters(tool).original;
}

/** Checks one candidate value: synthetic nulls stripped (for strict tools, given `original`), the JSON Schema, then Zod. */
function attempt(tool: AnyWorkerAgentTool, value: unknown, original: JSONObject | undefined, jsonSchema: CompiledJsonSchema | undefined): Attempt {
  const input = original === undefined ? value : withoutSyntheticNulls(value, original);
  if (jsonSchema !== undefined && jsonSchema.ok) {
    const issues = jsonSchema.check(input);
    if (issues.length > 0) return { ok: false, issues, checked: input };
  }
  const result = tool.schema.safeParse(input);
  return result.success ? { ok: true, params: result.data, input } : { ok: false, issues: zodValidationIssues(result.error.issues), checked: input };
}

/**
 * Own `"__proto__"` keys are data in JSON, but Zod drops them. For a `jsonSchema` tool (the JSON Schema, checked by
 * Ajv, is the contract) they are put back into the params; for a Zod tool the call is refused, naming the key, rather
 * than the tool silently getting different arguments than the model sent.
 */
function withProtoKeys(tool: AnyWorkerAgentTool, argumentsText: string, success: Attempt & { ok: true }, repairs: ArgumentRepair[]): ValidationResult {
  if (!mayHoldProtoKey(argumentsText)) return { ok: true, params: success.params, repairs };
  const kept = keepProtoKeys(success.input, success.params, tool.jsonSchema !== undefined);
  if (kept.ok) return { ok: true, params: kept.value, repairs };
  return {
    ok: false,
    message: formatUnreadableMessage({
      toolName: tool.name,
      problem: `the arguments hold a key named "__proto__" at ${kept.path}, which this tool's schema cannot receive (it would be dropped without a word). Rename that key.`,
      argumentsText,
    }),
  };
}

/** The JSON Schema the tool is sent with (before the strict transform), for coercion. */
function coercionSchema(tool: AnyWorkerAgentTool): JSONObject {
  if (tool.jsonSchema !== undefined) return tool.jsonSchema;
  const parameters = toolParameters(tool);
  return parameters.original ?? parameters.parameters;
}

function toolName(tool: unknown): string {
  try {
    const name = (tool as { name?: unknown }).name;
    return typeof name === 'string' ? name : 'unknown';
  } catch {
    return 'unknown';
  }
}
