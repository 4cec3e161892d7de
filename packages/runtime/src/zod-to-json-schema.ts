import { z } from 'zod';
import type { JSONObject } from './json.js';

/**
 * Converts a Zod schema to the JSON Schema of function parameters. Memoised per schema object.
 * @throws SchemaConversionError when the root is not an object schema or the schema cannot be converted.
 */
export function zodToJSONSchema(schema: z.ZodType): JSONObject {
  // TODO(runtime-schema helper): memoise, typed errors.
  return z.toJSONSchema(schema) as JSONObject;
}
