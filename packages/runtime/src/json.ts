/** A JSON primitive. */
export type JSONPrimitive = string | number | boolean | null;

/** Any JSON value. */
export type JSONValue = JSONPrimitive | JSONValue[] | { [key: string]: JSONValue };

/** A JSON object (a JSON Schema is one). */
export type JSONObject = { [key: string]: JSONValue };
