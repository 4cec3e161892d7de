import { isJSONObject, jsonPathChild } from '../json.js';
import type { JSONObject, JSONValue } from '../json.js';
import { acceptsNull, followRefs } from './json-schema-ref.js';

/** The value with the synthetic `null`s of the strict transform removed, and the JSON paths removed. */
export interface StrippedNulls {
  value: unknown;
  /** JSON paths (`$.a.b`) of the properties that were removed. */
  stripped: string[];
}

/**
 * Removes the `null`s a strict-mode model sends for optional properties: where the schema before the strict
 * transform (`original`) has an optional property that does not itself accept `null`, a `null` becomes an
 * absent property. Everything else is left as it is. Does not modify `value`: changed objects and arrays are
 * copied, and when nothing is stripped `value` itself is returned.
 *
 * Walks `properties`, `items`, `anyOf`/`oneOf` (the first branch the value fits) and local `$ref`s.
 */
export function stripSyntheticNulls(value: unknown, original: JSONObject): StrippedNulls {
  const stripped: string[] = [];
  const result = strip(value, original, original, '$', stripped);
  return { value: result, stripped };
}

/** `stripSyntheticNulls(value, original).value`, without writing the paths (validation's hot path). */
export function withoutSyntheticNulls(value: unknown, original: JSONObject): unknown {
  return strip(value, original, original, '$', undefined);
}

/** `stripped` collects the paths removed; when it is undefined, no path is written (`path` stays as given). */
function strip(value: unknown, schema: JSONValue | undefined, root: JSONObject, path: string, stripped: string[] | undefined): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const node = followRefs(schema, root);
  if (node === undefined) return value;

  const branch = pickBranch(value, node, root);
  if (branch !== undefined) return strip(value, branch, root, path, stripped);

  if (Array.isArray(value)) {
    const items = node['items'];
    if (items === undefined || Array.isArray(items)) return value;
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index += 1) {
      const element: unknown = value[index];
      // Only objects and arrays can hold a null to strip (a null element itself is kept).
      if (typeof element !== 'object' || element === null) continue;
      const next = strip(element, items, root, stripped === undefined ? path : jsonPathChild(path, index), stripped);
      if (next !== element) {
        copy ??= [...value];
        copy[index] = next;
      }
    }
    return copy ?? value;
  }

  const properties = node['properties'];
  if (!isJSONObject(properties)) return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  // Built only once something changes, key by key in the same order (a `delete` would make a slow dictionary object).
  let copy: Record<string, unknown> | undefined;
  // Paths are only written for what is removed or walked into: most properties are neither.
  for (let position = 0; position < keys.length; position += 1) {
    const key = keys[position] as string;
    const child = record[key];
    let next = child;
    if (typeof child === 'object' && Object.hasOwn(properties, key)) {
      const propertySchema = properties[key];
      if (child === null) {
        const required = node['required'];
        if (!(Array.isArray(required) && required.includes(key)) && !acceptsNull(propertySchema, root)) {
          copy ??= copyOfFirst(record, keys, position);
          stripped?.push(jsonPathChild(path, key));
          continue;
        }
      } else {
        next = strip(child, propertySchema, root, stripped === undefined ? path : jsonPathChild(path, key), stripped);
        if (next !== child) copy ??= copyOfFirst(record, keys, position);
      }
    }
    if (copy !== undefined) setOwn(copy, key, next);
  }
  return copy ?? value;
}

/** A new object with the first `count` of `keys` of `record`. */
function copyOfFirst(record: Record<string, unknown>, keys: readonly string[], count: number): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (let position = 0; position < count; position += 1) {
    const key = keys[position] as string;
    setOwn(copy, key, record[key]);
  }
  return copy;
}

/** `target[key] = value` as an own data property (a `"__proto__"` key from JSON is data, not the prototype). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** For a union node: the first branch `value` fits (shallowly), or undefined when `node` is no union or none fits. */
function pickBranch(value: object, node: JSONObject, root: JSONObject): JSONObject | undefined {
  const branches = Array.isArray(node['anyOf']) ? node['anyOf'] : Array.isArray(node['oneOf']) ? node['oneOf'] : undefined;
  if (branches === undefined) return undefined;
  for (const candidate of branches) {
    const branch = followRefs(candidate, root);
    if (branch !== undefined && fits(value, branch, root)) return branch;
  }
  return undefined;
}

/** A shallow check that `value` could be an instance of `schema`: the container type, known keys, required keys, consts. */
function fits(value: object, schema: JSONObject, root: JSONObject): boolean {
  if (Array.isArray(schema['anyOf']) || Array.isArray(schema['oneOf'])) {
    return pickBranch(value, schema, root) !== undefined;
  }
  const type = schema['type'];
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type : [];
  if (Array.isArray(value)) return types.includes('array') || (types.length === 0 && 'items' in schema);
  if (!(types.includes('object') || (types.length === 0 && 'properties' in schema))) return false;
  const properties = isJSONObject(schema['properties']) ? schema['properties'] : {};
  const record = value as Record<string, unknown>;
  // Strict objects are closed, so a model's value only holds keys its branch names.
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(properties, key)) return false;
  }
  const required = Array.isArray(schema['required']) ? schema['required'] : [];
  for (const key of required) {
    if (typeof key === 'string' && !Object.hasOwn(record, key)) return false;
  }
  for (const [key, propertySchema] of Object.entries(properties)) {
    const property = followRefs(propertySchema, root);
    if (property === undefined || !Object.hasOwn(record, key)) continue;
    const child = record[key];
    if ('const' in property && property['const'] !== child) return false;
    if (Array.isArray(property['enum']) && (child === null || typeof child !== 'object') && !property['enum'].includes(child as JSONValue)) return false;
  }
  return true;
}
