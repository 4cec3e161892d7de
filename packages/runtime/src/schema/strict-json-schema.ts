import { StrictSchemaError } from '../errors.js';
import type { StrictSchemaIssue } from '../errors.js';
import { isJSONObject, jsonPathChild } from '../json.js';
import type { JSONObject, JSONValue } from '../json.js';
import { acceptsNull, resolveRef } from './json-schema-ref.js';

/** Keywords OpenAI's strict mode refuses, whatever the schema around them. */
const UNSUPPORTED_KEYWORDS = [
  'allOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'patternProperties',
  'prefixItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contains',
  'minContains',
  'maxContains',
] as const;

/** The string formats strict mode accepts. */
export const STRICT_STRING_FORMATS: readonly string[] = ['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'];

/**
 * The keywords OpenAI's strict mode takes (plus the annotations `title` and `description`): the strict transform keeps
 * these and drops every other annotation or validation keyword (Zod still checks it).
 */
export const STRICT_KEYWORDS: ReadonlySet<string> = new Set([
  'type',
  'description',
  'title',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/** Strict-mode limits (OpenAI structured outputs). */
const MAX_PROPERTIES = 5000;
const MAX_NESTING = 10;
const MAX_ENUM_VALUES = 1000;
const LARGE_ENUM = 250;
const MAX_LARGE_ENUM_CHARACTERS = 15_000;

type Mode = 'transform' | 'check';

interface WalkContext {
  mode: Mode;
  root: JSONObject;
  issues: StrictSchemaIssue[];
  propertyCount: number;
}

/**
 * Makes a JSON Schema (as `zodToJSONSchema` produces it) acceptable to OpenAI's strict mode: every object closed
 * (`additionalProperties: false`) with every property in `required`, optional properties made nullable
 * (`type: [T, "null"]` for primitives, `anyOf: [..., {type: "null"}]` otherwise; never twice), `oneOf` (Zod's
 * discriminated unions) sent as `anyOf`, `enum`/`const` without a `type` given one, and annotations strict mode does
 * not take (`default`, `minLength`, `examples`, ...) dropped, as is the `pattern` Zod adds next to a `format` —
 * Zod still enforces all of them after the model answers.
 * Recurses through `properties`, `items`, `anyOf` and `$defs`/`definitions`. Does not modify `schema`.
 * @throws StrictSchemaError naming the JSON path of the first construct strict mode cannot express (see
 *   `checkStrictSchema` for the list).
 */
export function toStrictJSONSchema(schema: JSONObject): JSONObject {
  const context: WalkContext = { mode: 'transform', root: schema, issues: [], propertyCount: 0 };
  const result = walkRoot(schema, context);
  if (context.issues.length > 0) throw new StrictSchemaError(context.issues);
  return result;
}

/**
 * Lists what keeps a JSON Schema from being used as-is with `strict: true`: objects not closed, properties not
 * required, unsupported keywords (`allOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentRequired`,
 * `dependentSchemas`, `patternProperties`, `prefixItems`, `unevaluated*`, `propertyNames`, `contains`), open
 * records, schemas with no type, unsupported string formats, a root that is not an object, and the limits (5000
 * properties, 10 levels of nesting, 1000 enum values). An empty list means the schema can be sent with `strict: true`.
 */
export function checkStrictSchema(schema: JSONObject): StrictSchemaIssue[] {
  const context: WalkContext = { mode: 'check', root: schema, issues: [], propertyCount: 0 };
  walkRoot(schema, context);
  return context.issues;
}

function walkRoot(schema: JSONObject, context: WalkContext): JSONObject {
  if (schema['type'] !== 'object') {
    context.issues.push({ path: '$', message: `the root must be an object schema (type "object"), got ${describeType(schema)}.` });
  }
  if ('anyOf' in schema) context.issues.push({ path: '$', message: 'the root must not be "anyOf"; put the union in a property.' });
  const result = walkNode(schema, '$', context);
  if (context.propertyCount > MAX_PROPERTIES) {
    context.issues.push({ path: '$', message: `${context.propertyCount} properties in total; strict mode allows ${MAX_PROPERTIES}.` });
  }
  const deepest = deepestNesting(result);
  if (deepest !== undefined) {
    context.issues.push({ path: deepest, message: `objects nest deeper than ${MAX_NESTING} levels, the strict-mode limit.` });
  }
  return result;
}

function walkNode(node: JSONValue | undefined, path: string, context: WalkContext): JSONObject {
  if (!isJSONObject(node)) {
    context.issues.push({
      path,
      message: `a schema must be an object, got ${JSON.stringify(node)}; strict mode needs an explicit type here.`,
    });
    return {};
  }
  checkKeywords(node, path, context);

  const out: JSONObject = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'oneOf') {
      // Zod emits `oneOf` for discriminated unions; their branches exclude each other, so `anyOf` says the same.
      if (context.mode === 'transform' && Array.isArray(value)) out['anyOf'] = walkBranches(value, jsonPathChild(path, 'oneOf'), context);
      continue;
    }
    if (context.mode === 'transform' && !STRICT_KEYWORDS.has(keyword)) continue;
    if (keyword === 'items' && 'prefixItems' in node) continue; // a tuple, already reported
    // Zod sends its own regex along with a format (z.email(), z.iso.datetime()); the format says it, Zod checks it.
    if (context.mode === 'transform' && keyword === 'pattern' && typeof node['format'] === 'string') continue;
    out[keyword] = walkKeyword(keyword, value, path, context);
  }
  if (context.mode === 'transform') inferEnumType(out);
  if (isObjectSchema(node)) closeObject(node, out, context);
  return out;
}

function walkKeyword(keyword: string, value: JSONValue, path: string, context: WalkContext): JSONValue {
  const here = jsonPathChild(path, keyword);
  switch (keyword) {
    case 'properties':
    case '$defs':
    case 'definitions': {
      if (!isJSONObject(value)) return value;
      const mapped: JSONObject = {};
      for (const [name, child] of Object.entries(value)) mapped[name] = walkNode(child, jsonPathChild(here, name), context);
      return mapped;
    }
    case 'items':
      if (Array.isArray(value)) {
        context.issues.push({ path: here, message: 'tuple "items" (an array of schemas) is not supported in strict mode; use one item schema.' });
        return value;
      }
      return walkNode(value, here, context);
    case 'anyOf':
      return Array.isArray(value) ? walkBranches(value, here, context) : value;
    default:
      return value;
  }
}

function walkBranches(branches: JSONValue[], path: string, context: WalkContext): JSONObject[] {
  return branches.map((branch, index) => walkNode(branch, jsonPathChild(path, index), context));
}

function checkKeywords(node: JSONObject, path: string, context: WalkContext): void {
  const issue = (message: string): void => {
    context.issues.push({ path, message });
  };
  const additional = node['additionalProperties'];
  if (additional !== undefined && additional !== false) {
    issue(
      'an open record (additionalProperties other than false, e.g. z.record() or .catchall()/.passthrough()) is not supported in strict mode; name every property, use an array of { key, value } objects, or set strict: false.',
    );
  }
  for (const keyword of UNSUPPORTED_KEYWORDS) {
    if (!(keyword in node)) continue;
    if (keyword === 'oneOf' && context.mode === 'transform') continue;
    if (keyword === 'propertyNames' && additional !== undefined && additional !== false) continue; // reported as an open record
    issue(`"${keyword}" is not supported in strict mode; ${keywordAdvice(keyword)}`);
  }
  const format = node['format'];
  if (format !== undefined && (typeof format !== 'string' || !STRICT_STRING_FORMATS.includes(format))) {
    issue(
      `string format ${JSON.stringify(format)} is not supported in strict mode (supported: ${STRICT_STRING_FORMATS.join(', ')}); use a plain string with a description, or set strict: false.`,
    );
  }
  const values = node['enum'];
  if (Array.isArray(values)) {
    if (values.length > MAX_ENUM_VALUES) issue(`the enum has ${values.length} values; strict mode allows ${MAX_ENUM_VALUES}.`);
    else if (values.length > LARGE_ENUM) {
      const characters = values.reduce<number>((total, value) => total + (typeof value === 'string' ? value.length : 0), 0);
      if (characters > MAX_LARGE_ENUM_CHARACTERS) {
        issue(`the enum's ${values.length} values total ${characters} characters; strict mode allows ${MAX_LARGE_ENUM_CHARACTERS} above ${LARGE_ENUM} values.`);
      }
    }
  }
  const ref = node['$ref'];
  if (ref !== undefined && (typeof ref !== 'string' || resolveRef(ref, context.root) === undefined)) {
    issue(`$ref ${JSON.stringify(ref)} does not point into this schema ("#", "#/$defs/..." or "#/definitions/...").`);
  }
  const typed = 'type' in node || 'anyOf' in node || 'oneOf' in node || '$ref' in node || 'enum' in node || 'const' in node;
  if (!typed && !UNSUPPORTED_KEYWORDS.some((keyword) => keyword in node)) {
    issue('this schema accepts any value (it has no "type"); strict mode needs a type (z.unknown()/z.any() cannot be strict), or set strict: false.');
  }
  if (context.mode === 'check' && isObjectSchema(node)) {
    if (node['additionalProperties'] === undefined) issue('objects must set "additionalProperties": false in strict mode.');
    const properties = isJSONObject(node['properties']) ? Object.keys(node['properties']) : [];
    const required = new Set(Array.isArray(node['required']) ? node['required'] : []);
    const missing = properties.filter((name) => !required.has(name));
    if (missing.length > 0) {
      issue(`every property must be listed in "required" in strict mode (make optional ones nullable instead); missing: ${missing.join(', ')}.`);
    }
  }
}

function keywordAdvice(keyword: string): string {
  switch (keyword) {
    case 'allOf':
      return 'merge the parts into one object schema (z.object({...a.shape, ...b.shape}) rather than z.intersection).';
    case 'oneOf':
      return 'use "anyOf".';
    case 'prefixItems':
      return 'tuples cannot be strict; use an object with named fields or an array of one item type.';
    default:
      return 'remove it (validate it in code instead) or set strict: false.';
  }
}

function isObjectSchema(node: JSONObject): boolean {
  const type = node['type'];
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || (type === undefined && isJSONObject(node['properties']));
}

/** Closes an object in `out`: every property required, optional ones nullable, no additional properties. */
function closeObject(node: JSONObject, out: JSONObject, context: WalkContext): void {
  const properties = isJSONObject(out['properties']) ? out['properties'] : {};
  const names = Object.keys(properties);
  context.propertyCount += names.length;
  if (context.mode === 'check') return;
  const required = new Set(Array.isArray(node['required']) ? node['required'] : []);
  const nullable: JSONObject = {};
  for (const name of names) {
    const property = properties[name] as JSONObject;
    nullable[name] = required.has(name) ? property : makeNullable(property, context.root);
  }
  out['properties'] = nullable;
  out['required'] = names;
  out['additionalProperties'] = false;
}

/** The schema accepting `null` as well; unchanged when it already does. */
function makeNullable(schema: JSONObject, root: JSONObject): JSONObject {
  if (acceptsNull(schema, root)) return schema;
  const type = schema['type'];
  const plain = !('$ref' in schema) && !('const' in schema) && !('anyOf' in schema);
  if (plain && typeof type === 'string' && PRIMITIVE_TYPES.has(type)) {
    const widened: JSONObject = { ...schema, type: [type, 'null'] };
    if (Array.isArray(schema['enum'])) widened['enum'] = [...schema['enum'], null];
    return widened;
  }
  if (plain && Array.isArray(type) && type.every((entry) => typeof entry === 'string' && PRIMITIVE_TYPES.has(entry))) {
    const widened: JSONObject = { ...schema, type: [...type, 'null'] };
    if (Array.isArray(schema['enum'])) widened['enum'] = [...schema['enum'], null];
    return widened;
  }
  if (Array.isArray(schema['anyOf']) && type === undefined && !('$ref' in schema)) {
    return { ...schema, anyOf: [...schema['anyOf'], { type: 'null' }] };
  }
  return { anyOf: [schema, { type: 'null' }] };
}

/** Gives `enum`/`const` schemas without a `type` the type of their values (strict mode wants a type). */
function inferEnumType(out: JSONObject): void {
  if ('type' in out) return;
  const values = Array.isArray(out['enum']) ? out['enum'] : 'const' in out ? [out['const'] as JSONValue] : undefined;
  if (values === undefined || values.length === 0) return;
  const types: string[] = [];
  for (const value of values) {
    const type =
      value === null
        ? 'null'
        : typeof value === 'string'
          ? 'string'
          : typeof value === 'boolean'
            ? 'boolean'
            : typeof value === 'number'
              ? 'number'
              : undefined;
    if (type === undefined) return;
    if (!types.includes(type)) types.push(type);
  }
  out['type'] = types.length === 1 ? (types[0] as string) : types;
}

function describeType(schema: JSONObject): string {
  if ('type' in schema) return JSON.stringify(schema['type']);
  const keys = Object.keys(schema);
  return keys.length === 0 ? 'a schema with no type' : `a schema with ${keys.map((key) => `"${key}"`).join(', ')}`;
}

/**
 * The path of the first object nested deeper than the limit, or undefined. Counts object schemas from the root
 * (level 1) through properties, items, anyOf and `$ref`s (a `$ref` already on the way down is recursion: allowed).
 */
function deepestNesting(root: JSONObject): string | undefined {
  const visit = (node: JSONValue | undefined, path: string, level: number, refs: readonly string[]): string | undefined => {
    if (!isJSONObject(node)) return undefined;
    const ref = node['$ref'];
    if (typeof ref === 'string') {
      if (refs.includes(ref)) return undefined;
      const target = resolveRef(ref, root);
      return target === undefined ? undefined : visit(target, path, level, [...refs, ref]);
    }
    const objectLevel = isObjectSchema(node) ? level + 1 : level;
    if (objectLevel > MAX_NESTING) return path;
    const properties = node['properties'];
    if (isJSONObject(properties)) {
      for (const [name, child] of Object.entries(properties)) {
        const found = visit(child, jsonPathChild(jsonPathChild(path, 'properties'), name), objectLevel, refs);
        if (found !== undefined) return found;
      }
    }
    const found = visit(node['items'], jsonPathChild(path, 'items'), objectLevel, refs);
    if (found !== undefined) return found;
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const branches = node[keyword];
      if (!Array.isArray(branches)) continue;
      for (const [index, branch] of branches.entries()) {
        const inBranch = visit(branch, jsonPathChild(jsonPathChild(path, keyword), index), objectLevel, refs);
        if (inBranch !== undefined) return inBranch;
      }
    }
    return undefined;
  };
  return visit(root, '$', 0, ['#']);
}
