import { jsonPathChild } from '../json.js';

/*
 * Ajv leaves a property named "__proto__" out of `properties` (its code generator skips that name, and
 * `additionalProperties` does not count it as declared), so `{"properties": {"__proto__": {"type": "number"}}}` let
 * `{"__proto__": "foo"}` through. In JSON that key is data like any other (`JSON.parse` makes it an own property, and
 * the runtime hands it to the tool), so it must be validated like any other.
 */

/** The keywords whose value is one subschema. */
const SUBSCHEMA = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'contentSchema',
] as const;
/** The keywords whose value is a list of subschemas. */
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'] as const;
/** The keywords whose value maps names to subschemas. */
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'] as const;

/** The `patternProperties` key that matches exactly the property name "__proto__". */
export const PROTO_KEY_PATTERN = '^__proto__$';

/**
 * `schema` as Ajv must be given it to validate a property named "__proto__" like any other: every subschema whose
 * `properties` declares "__proto__" also gets `patternProperties: { "^__proto__$": <that declaration> }` (joined
 * with `allOf` to a pattern already there), which Ajv does apply to that key — so its type, its constraints and
 * `additionalProperties: false` work, and `required: ["__proto__"]` already does with `ownProperties`. Everything
 * else is unchanged (`properties` too, so `$ref`s into it still resolve). Only schema positions are walked (never
 * `const`, `enum`, `default` or `examples`). Returns `schema` itself when it declares no such property; otherwise a
 * copy (the given schema is never changed: a tool is still sent with its own schema, byte for byte).
 */
export function withProtoKeyRules<T extends object>(schema: T): T {
  return transform(schema, new Map()) as T;
}

/**
 * The JSON paths of every subschema that declares a property named "__proto__" (`$.properties.meta` for
 * `{ properties: { meta: { properties: { __proto__: … } } } }`), in document order; empty when there is none.
 */
export function findProtoKeyProperties(schema: unknown): string[] {
  const found: string[] = [];
  const seen = new Set<object>();
  const visit = (node: unknown, path: string): void => {
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    const properties = node['properties'];
    if (isObject(properties) && Object.hasOwn(properties, '__proto__')) found.push(path);
    forEachSubschema(node, (child, key, index) =>
      visit(child, index === undefined ? jsonPathChild(path, key) : jsonPathChild(jsonPathChild(path, key), index)),
    );
  };
  visit(schema, '$');
  return found;
}

function transform(node: unknown, copies: Map<object, unknown>): unknown {
  if (!isObject(node)) return node;
  if (copies.has(node)) return copies.get(node);
  // Settled first as unchanged, so a schema object that contains itself ends the walk.
  copies.set(node, node);
  let copy: Record<string, unknown> | undefined;
  const put = (key: string, value: unknown) => {
    copy ??= copyOf(node);
    Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  };
  forEachKeyword(node, (key, value) => {
    const next = transformKeyword(key, value, copies);
    if (next !== value) put(key, next);
  });
  const properties = node['properties'];
  if (isObject(properties) && Object.hasOwn(properties, '__proto__')) {
    const declared = transform(Object.getOwnPropertyDescriptor(properties, '__proto__')!.value, copies);
    const patterns = (copy ?? node)['patternProperties'];
    const merged = isObject(patterns) ? copyOf(patterns) : {};
    const existing = Object.hasOwn(merged, PROTO_KEY_PATTERN) ? merged[PROTO_KEY_PATTERN] : undefined;
    merged[PROTO_KEY_PATTERN] = existing === undefined ? declared : { allOf: [existing, declared] };
    put('patternProperties', merged);
  }
  const result = copy ?? node;
  copies.set(node, result);
  return result;
}

function transformKeyword(key: string, value: unknown, copies: Map<object, unknown>): unknown {
  if ((SUBSCHEMA as readonly string[]).includes(key) && isObject(value)) return transform(value, copies);
  if ((SUBSCHEMA_LISTS as readonly string[]).includes(key) && Array.isArray(value)) {
    const next = value.map((item) => transform(item, copies));
    return next.some((item, index) => item !== value[index]) ? next : value;
  }
  if ((SUBSCHEMA_MAPS as readonly string[]).includes(key) && isObject(value)) {
    let mapCopy: Record<string, unknown> | undefined;
    for (const name of Object.keys(value)) {
      const item = Object.getOwnPropertyDescriptor(value, name)!.value as unknown;
      // `dependencies` also maps names to lists of names (not schemas): those stay as they are.
      const next = transform(item, copies);
      if (next === item) continue;
      mapCopy ??= copyOf(value);
      Object.defineProperty(mapCopy, name, { value: next, enumerable: true, writable: true, configurable: true });
    }
    return mapCopy ?? value;
  }
  return value;
}

function forEachKeyword(node: Record<string, unknown>, visit: (key: string, value: unknown) => void): void {
  for (const key of Object.keys(node)) visit(key, Object.getOwnPropertyDescriptor(node, key)!.value);
}

function forEachSubschema(node: Record<string, unknown>, visit: (child: unknown, key: string, index?: string | number) => void): void {
  forEachKeyword(node, (key, value) => {
    if ((SUBSCHEMA as readonly string[]).includes(key) && isObject(value)) visit(value, key);
    else if ((SUBSCHEMA_LISTS as readonly string[]).includes(key) && Array.isArray(value)) value.forEach((item, index) => visit(item, key, index));
    else if ((SUBSCHEMA_MAPS as readonly string[]).includes(key) && isObject(value)) {
      for (const name of Object.keys(value)) visit(Object.getOwnPropertyDescriptor(value, name)!.value, key, name);
    }
  });
}

/** A shallow copy keeping an own "__proto__" key as data (a spread or `Object.assign` would set the prototype). */
function copyOf(value: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    Object.defineProperty(copy, key, { value: Object.getOwnPropertyDescriptor(value, key)!.value, enumerable: true, writable: true, configurable: true });
  return copy;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
