import { isJSONObject, jsonPathChild } from './json.js';
import type { JSONObject, JSONValue } from './json.js';
import { acceptsNull, resolveRef } from './strict-json-schema.js';

/** The value with the synthetic `null`s of the strict transform removed, and the JSON paths removed. */
export interface StrippedNulls {
  value: unknown;
  /** JSON paths (`$.a.b`) of the properties that were removed. */
  stripped: string[];
}

/** `$ref` hops followed on one path before giving up (recursive schemas nest values, not schemas). */
const MAX_REF_HOPS = 32;

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

function strip(value: unknown, schema: JSONValue | undefined, root: JSONObject, path: string, stripped: string[]): unknown {
  const node = resolve(schema, root);
  if (node === undefined || typeof value !== 'object' || value === null) return value;

  const branch = pickBranch(value, node, root);
  if (branch !== undefined) return strip(value, branch, root, path, stripped);

  if (Array.isArray(value)) {
    const items = node['items'];
    if (items === undefined || Array.isArray(items)) return value;
    let copy: unknown[] | undefined;
    value.forEach((element: unknown, index) => {
      const next = strip(element, items, root, jsonPathChild(path, index), stripped);
      if (next !== element) {
        copy ??= [...value];
        copy[index] = next;
      }
    });
    return copy ?? value;
  }

  const properties = node['properties'];
  if (!isJSONObject(properties)) return value;
  const required = Array.isArray(node['required']) ? node['required'] : [];
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const [key, child] of Object.entries(record)) {
    if (!Object.hasOwn(properties, key)) continue;
    const propertySchema = properties[key];
    const childPath = jsonPathChild(path, key);
    if (child === null) {
      if (!required.includes(key) && !acceptsNull(propertySchema, root)) {
        copy ??= { ...record };
        delete copy[key];
        stripped.push(childPath);
      }
      continue;
    }
    const next = strip(child, propertySchema, root, childPath, stripped);
    if (next !== child) {
      copy ??= { ...record };
      copy[key] = next;
    }
  }
  return copy ?? value;
}

/** Follows `$ref`s to the schema object they name. */
function resolve(schema: JSONValue | undefined, root: JSONObject): JSONObject | undefined {
  let node = schema;
  for (let hops = 0; isJSONObject(node) && typeof node['$ref'] === 'string'; hops += 1) {
    if (hops === MAX_REF_HOPS) return undefined;
    node = resolveRef(node['$ref'], root);
  }
  return isJSONObject(node) ? node : undefined;
}

/** For a union node: the first branch `value` fits (shallowly), or undefined when `node` is no union or none fits. */
function pickBranch(value: object, node: JSONObject, root: JSONObject): JSONObject | undefined {
  const branches = Array.isArray(node['anyOf']) ? node['anyOf'] : Array.isArray(node['oneOf']) ? node['oneOf'] : undefined;
  if (branches === undefined) return undefined;
  for (const candidate of branches) {
    const branch = resolve(candidate, root);
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
    const property = resolve(propertySchema, root);
    if (property === undefined || !Object.hasOwn(record, key)) continue;
    const child = record[key];
    if ('const' in property && property['const'] !== child) return false;
    if (Array.isArray(property['enum']) && (child === null || typeof child !== 'object') && !property['enum'].includes(child as JSONValue)) return false;
  }
  return true;
}
