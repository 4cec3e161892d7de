import { isJSONObject, type JSONObject, type JSONValue } from '../json.js';

/** The schema `$ref`s are resolved against (its root object). */
export type SchemaRoot = Readonly<Record<string, unknown>>;

/** `$ref` hops followed in a row before giving up (recursive schemas nest values, not schemas). */
export const MAX_REF_HOPS = 32;

/**
 * Resolves a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`, or any `#/...` JSON pointer) against `root`, one hop;
 * `undefined` when it points outside the schema, at a member that is not its own, or at no schema object.
 */
export function resolveRef(ref: string, root: SchemaRoot): JSONObject | undefined {
  if (!ref.startsWith('#')) return undefined;
  let current: unknown = root;
  if (ref === '#') return isJSONObject(current) ? current : undefined;
  if (!ref.startsWith('#/')) return undefined;
  for (const token of ref.slice(2).split('/')) {
    const key = pointerKey(token);
    if (!isJSONObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return isJSONObject(current) ? current : undefined;
}

/** The member name a JSON-pointer token stands for (percent-decoded, then `~1` → `/` and `~0` → `~`). */
export function pointerKey(token: string): string {
  return decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
}

/**
 * Follows `$ref`s from `schema` to the schema object they name, at most `MAX_REF_HOPS` in a row (`undefined` past
 * that). A `$ref` that resolves to nothing gives `undefined`, or with `keepSiblings` the keywords beside it (2020-12
 * lets a `$ref` stand next to other keywords).
 */
export function followRefs(schema: unknown, root: SchemaRoot, keepSiblings = false): JSONObject | undefined {
  let node = schema;
  for (let hops = 0; isJSONObject(node) && typeof node['$ref'] === 'string'; hops += 1) {
    if (hops === MAX_REF_HOPS) return undefined;
    const target = resolveRef(node['$ref'], root);
    if (target === undefined) {
      if (!keepSiblings) return undefined;
      const { $ref: _ref, ...siblings } = node;
      return siblings;
    }
    node = target;
  }
  return isJSONObject(node) ? node : undefined;
}

/**
 * Whether a schema accepts `null` (a `null` type, an enum or const holding null, a union branch that does, or a
 * `$ref` to one). `$ref`s are resolved against `root`; cycles count as not accepting null.
 */
export function acceptsNull(schema: JSONValue | undefined, root: JSONObject, seen?: Set<string>): boolean {
  if (schema === true) return true;
  if (!isJSONObject(schema)) return false;
  const type = schema['type'];
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if ('const' in schema) return schema['const'] === null;
  if (Array.isArray(schema['enum'])) return schema['enum'].includes(null);
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    // The refs seen are shared by the branches (made only when there is something to walk).
    const shared = (seen ??= new Set());
    if (branches.some((branch) => acceptsNull(branch, root, shared))) return true;
  }
  const ref = schema['$ref'];
  if (typeof ref === 'string') {
    seen ??= new Set();
    if (seen.has(ref)) return false;
    seen.add(ref);
    return acceptsNull(resolveRef(ref, root), root, seen);
  }
  // No type and no other constraint at all: accepts anything, null included.
  return (
    type === undefined && !('anyOf' in schema) && !('oneOf' in schema) && !('allOf' in schema) && !('not' in schema) && !isJSONObject(schema['properties'])
  );
}
