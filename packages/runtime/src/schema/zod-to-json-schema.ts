import { z } from 'zod';
import { SchemaConversionError } from '../errors.js';
import { deepFreeze, isJSONObject } from '../json.js';
import type { JSONObject } from '../json.js';

/*
 * Memo: one converted schema per Zod schema object. A WeakMap keyed by the schema keeps nothing alive and holds
 * only pure results of pure conversions, so sharing it across callers is safe (it is the one piece of module
 * state in the runtime, and it is invisible).
 */
const converted = new WeakMap<z.ZodType, JSONObject>();

/**
 * Converts a Zod schema to the JSON Schema of function parameters.
 *
 * - Converts the schema's INPUT side (`io: 'input'`): the model writes what Zod then parses, so a field with a
 *   `.default()` is optional, and a `.transform()` is described by what it accepts.
 * - Drops the `$schema` key (the API does not need it); a root with a metadata `id` is put at the root, not behind a `$ref`.
 * - Memoised per schema object; the result is deeply frozen (copy it before changing it).
 *
 * @throws SchemaConversionError (`code: 'schema_conversion_failed'`) when the root is not an object schema, or
 *   when part of the schema cannot be represented in JSON Schema (`z.date()`, `z.bigint()`, `z.map()`, ...;
 *   the Zod error is the `cause`).
 */
export function zodToJSONSchema(schema: z.ZodType): JSONObject {
  const cached = converted.get(schema);
  if (cached !== undefined) return cached;
  let generated: unknown;
  try {
    generated = z.toJSONSchema(schema, { io: 'input' });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SchemaConversionError(
      `The Zod schema cannot be converted to JSON Schema: ${reason}. Use types JSON can carry (strings instead of dates or bigints, objects instead of maps).`,
      { cause: error, reason: 'unrepresentable' },
    );
  }
  if (isJSONObject(generated)) generated = inlineRootRef(generated);
  if (!isJSONObject(generated) || generated['type'] !== 'object') {
    const found = isJSONObject(generated) ? JSON.stringify(generated['type'] ?? Object.keys(generated)) : typeof generated;
    throw new SchemaConversionError(`Function tool parameters must use a root object schema (z.object(...)), got ${found}. Wrap the value in an object.`, {
      reason: 'root_not_object',
    });
  }
  const { $schema: _dropped, ...rest } = generated;
  const result = deepFreeze(rest);
  converted.set(schema, result);
  return result;
}

/**
 * A root schema with an `id` in its metadata (`.meta({ id: 'Args' })`) comes out as `{ $ref: '#/$defs/Args', $defs }`;
 * function parameters need the object itself at the root, so the definition is copied there (and kept in `$defs`
 * for the references to it).
 */
function inlineRootRef(generated: JSONObject): JSONObject {
  const ref = generated['$ref'];
  const definitions = generated['$defs'];
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/') || !isJSONObject(definitions) || 'type' in generated) return generated;
  const target = definitions[decodeURIComponent(ref.slice('#/$defs/'.length))];
  if (!isJSONObject(target)) return generated;
  const { $ref: _ref, $defs: _definitions, ...annotations } = generated;
  return { ...annotations, ...target, $defs: definitions };
}
