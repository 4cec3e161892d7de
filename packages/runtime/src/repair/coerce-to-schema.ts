import { jsonPathChild, type JSONObject } from '../json.js';
import { followRefs } from '../schema/json-schema-ref.js';
import { jsonNestingDepth, MAX_ARGUMENT_DEPTH } from '../validation/argument-limits.js';

/** The outcome of `coerceToSchema`: the (possibly new) value and one line per change, with its JSON path. */
export interface Coercion {
  value: unknown;
  changes: string[];
}

type Schema = Record<string, unknown>;
type JsonType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

const NUMERIC = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/**
 * Schema-guided coercion of parsed arguments, for the mistakes models make with types. Only where the schema
 * does not accept the value as it is:
 * - a string holding JSON where an object or array is expected is parsed (once per value);
 * - a numeric string where a number / integer is expected becomes the number (`"3"` → 3; an integer only when whole);
 * - `"true"` / `"false"` where a boolean is expected become booleans;
 * - a finite number where only a string is expected becomes its decimal string (`42` → `"42"`);
 * - a single value where an array is expected becomes a one-element array, when the value fits the item type.
 * Follows `properties`, `additionalProperties`, `items` / `prefixItems`, `anyOf` / `oneOf` / `allOf` and local
 * `$ref`s (`#/$defs/…`, `#/definitions/…`). Never mutates `value` (changed containers are copied). Bounded by
 * the value's size. Never throws for any JSON value and JSON Schema.
 */
export function coerceToSchema(value: unknown, schema: unknown, depth = 0): Coercion {
  const changes: string[] = [];
  const root = isSchema(schema) ? schema : {};
  const result = coerce(value, root, root, '$', depth, changes);
  return { value: result, changes };
}

function coerce(value: unknown, schema: unknown, root: Schema, path: string, depth: number, changes: string[]): unknown {
  const node = followRefs(schema, root, true);
  if (node === undefined || depth > MAX_ARGUMENT_DEPTH) return value;

  const branches = [...asSchemaList(node['anyOf']), ...asSchemaList(node['oneOf'])];
  let current = value;
  for (const part of asSchemaList(node['allOf'])) current = coerce(current, part, root, path, depth, changes);
  if (branches.length > 0) return coerceToBranches(current, branches, root, path, depth, changes);

  const types = expectedTypes(node, root);
  if (types !== undefined && !types.has(typeOf(current))) {
    if (!(types.has('number') && typeOf(current) === 'integer')) current = convert(current, node, types, root, path, depth, changes);
  }
  return descend(current, node, root, path, depth, changes);
}

function coerceToBranches(value: unknown, branches: Schema[], root: Schema, path: string, depth: number, changes: string[]): unknown {
  const actual = typeOf(value);
  const resolved = branches.map((branch) => followRefs(branch, root, true)).filter((branch): branch is JSONObject => branch !== undefined);
  const fitting = resolved.filter((branch) => typeFits(actual, expectedTypes(branch, root)));
  if (fitting.length === 1) return coerce(value, fitting[0], root, path, depth, changes);
  if (fitting.length > 1) return value;
  for (const branch of resolved) {
    const attempt: string[] = [];
    const result = coerce(value, branch, root, path, depth, attempt);
    if (attempt.length > 0 && typeFits(typeOf(result), expectedTypes(branch, root))) {
      changes.push(...attempt);
      return result;
    }
  }
  return value;
}

/** Converts a value whose type the schema does not accept, when a safe conversion exists. */
function convert(value: unknown, node: Schema, types: Set<JsonType>, root: Schema, path: string, depth: number, changes: string[]): unknown {
  if (typeof value === 'string') {
    const text = value.trim();
    if ((types.has('object') && text.startsWith('{')) || (types.has('array') && text.startsWith('['))) {
      const parsed = parseEncoded(text, depth);
      if (parsed !== undefined && types.has(typeOf(parsed) === 'integer' ? 'number' : typeOf(parsed))) {
        changes.push(`${path}: parsed the JSON-encoded string into ${Array.isArray(parsed) ? 'an array' : 'an object'}`);
        return parsed;
      }
    }
    if ((types.has('number') || types.has('integer')) && NUMERIC.test(value)) {
      const number = Number(value);
      if (Number.isFinite(number) && (types.has('number') || Number.isInteger(number))) {
        changes.push(`${path}: string ${JSON.stringify(value)} became the number ${number}`);
        return number;
      }
    }
    if (types.has('boolean') && (text === 'true' || text === 'false')) {
      changes.push(`${path}: string ${JSON.stringify(value)} became the boolean ${text}`);
      return text === 'true';
    }
  }
  if (typeof value === 'number' && Number.isFinite(value) && types.has('string') && [...types].every((type) => type === 'string' || type === 'null')) {
    changes.push(`${path}: number ${value} became the string "${value}"`);
    return String(value);
  }
  if (types.has('array') && !Array.isArray(value) && value !== undefined) {
    const items = followRefs(Array.isArray(node['items']) ? node['items'][0] : node['items'], root, true);
    const attempt: string[] = [];
    const item = items === undefined ? value : coerce(value, items, root, `${path}[0]`, depth + 1, attempt);
    if (items !== undefined && typeFits(typeOf(item), expectedTypes(items, root))) {
      changes.push(`${path}: single value wrapped in an array`, ...attempt);
      return [item];
    }
  }
  return value;
}

/** Coerces the members of an object or array. */
function descend(value: unknown, node: Schema, root: Schema, path: string, depth: number, changes: string[]): unknown {
  if (Array.isArray(value)) {
    const prefix = asSchemaList(node['prefixItems']);
    const tuple = Array.isArray(node['items']) ? asSchemaList(node['items']) : prefix;
    const rest = isSchema(node['items']) ? node['items'] : isSchema(node['additionalItems']) ? node['additionalItems'] : undefined;
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const itemSchema = tuple[index] ?? rest;
      if (itemSchema === undefined) continue;
      const before = value[index];
      const after = coerce(before, itemSchema, root, `${path}[${index}]`, depth + 1, changes);
      if (after !== before) {
        copy ??= value.slice();
        copy[index] = after;
      }
    }
    return copy ?? value;
  }
  if (typeof value === 'object' && value !== null) {
    const properties = isSchema(node['properties']) ? node['properties'] : {};
    const additional = isSchema(node['additionalProperties']) ? node['additionalProperties'] : undefined;
    let copy: Record<string, unknown> | undefined;
    for (const [key, before] of Object.entries(value)) {
      const propertySchema = Object.hasOwn(properties, key) ? properties[key] : additional;
      if (propertySchema === undefined) continue;
      const after = coerce(before, propertySchema, root, jsonPathChild(path, key), depth + 1, changes);
      if (after !== before) {
        copy ??= { ...value };
        Object.defineProperty(copy, key, { value: after, writable: true, enumerable: true, configurable: true });
      }
    }
    return copy ?? value;
  }
  return value;
}

/** The JSON types a schema node accepts, or `undefined` when it does not say (then nothing is converted here). */
function expectedTypes(node: Schema, root: Schema): Set<JsonType> | undefined {
  const type = node['type'];
  if (typeof type === 'string') return new Set([type as JsonType]);
  if (Array.isArray(type)) return new Set(type.filter((entry): entry is JsonType => typeof entry === 'string'));
  if (node['const'] !== undefined) return new Set([valueType(node['const'])]);
  if (Array.isArray(node['enum'])) return new Set(node['enum'].map(valueType));
  const branches = [...asSchemaList(node['anyOf']), ...asSchemaList(node['oneOf'])];
  if (branches.length > 0) {
    const union = new Set<JsonType>();
    for (const branch of branches) {
      const resolved = followRefs(branch, root, true);
      const types = resolved === undefined || resolved === node ? undefined : shallowTypes(resolved);
      if (types === undefined) return undefined;
      for (const entry of types) union.add(entry);
    }
    return union.size === 0 ? undefined : union;
  }
  if (isSchema(node['properties'])) return new Set(['object']);
  if (node['items'] !== undefined || node['prefixItems'] !== undefined) return new Set(['array']);
  return undefined;
}

function shallowTypes(node: Schema): Set<JsonType> | undefined {
  const type = node['type'];
  if (typeof type === 'string') return new Set([type as JsonType]);
  if (Array.isArray(type)) return new Set(type.filter((entry): entry is JsonType => typeof entry === 'string'));
  if (node['const'] !== undefined) return new Set([valueType(node['const'])]);
  if (Array.isArray(node['enum'])) return new Set(node['enum'].map(valueType));
  if (isSchema(node['properties'])) return new Set(['object']);
  return undefined;
}

function typeFits(actual: JsonType, expected: Set<JsonType> | undefined): boolean {
  if (expected === undefined) return true;
  return expected.has(actual) || (actual === 'integer' && expected.has('number'));
}

function valueType(value: unknown): JsonType {
  const type = typeOf(value);
  return type === 'integer' ? 'number' : type;
}

/** The JSON type of a value (`integer` for whole numbers). */
function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'object';
  }
}

function parseEncoded(text: string, depth: number): unknown {
  if (jsonNestingDepth(text, MAX_ARGUMENT_DEPTH) + depth > MAX_ARGUMENT_DEPTH) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function asSchemaList(value: unknown): Schema[] {
  return Array.isArray(value) ? value.filter(isSchema) : [];
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
