import type { JSONObject } from './json.js';

/** The value with the synthetic `null`s of the strict transform removed, and the JSON paths removed. */
export interface StrippedNulls {
  value: unknown;
  /** JSON paths (`$.a.b`) of the properties that were removed. */
  stripped: string[];
}

/**
 * Removes the `null`s a strict-mode model sends for optional properties: where the schema before the strict
 * transform (`original`) has an optional property that does not itself accept `null`, a `null` becomes an
 * absent property. Everything else is left as it is. Does not modify `value`.
 */
export function stripSyntheticNulls(value: unknown, original: JSONObject): StrippedNulls {
  // TODO(runtime-schema helper)
  void original;
  return { value, stripped: [] };
}
