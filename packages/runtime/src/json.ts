/** A JSON primitive. */
export type JSONPrimitive = string | number | boolean | null;

/** Any JSON value. */
export type JSONValue = JSONPrimitive | JSONValue[] | { [key: string]: JSONValue };

/** A JSON object (a JSON Schema is one). */
export type JSONObject = { [key: string]: JSONValue };

/** Whether `value` is a plain JSON object (not `null`, not an array). */
export function isJSONObject(value: unknown): value is JSONObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The JSON path of `key` under `parent`: `$.a.b`, `$.items[0]`, `$["odd key"]`. */
export function jsonPathChild(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return IDENTIFIER.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}

/** Freezes `value` and everything reachable from it; returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
