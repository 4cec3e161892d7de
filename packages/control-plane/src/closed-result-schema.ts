import { checkStrictSchema, compileLinearPattern, jsonPathChild, STRICT_KEYWORDS } from '@core/runtime';
import type { ResultSchemaValidator } from './result-validator.js';
import type { JsonObject } from '@core/control-plane-client';

/** One reason a result schema is not a closed (strict-mode) shape. */
export interface ResultSchemaIssue {
  /** JSON path of the schema node, e.g. `$.properties.facts.items`. */
  path: string;
  message: string;
}

const JSON_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
/** Largest result schema, as JSON (UTF-8 bytes). */
export const MAX_RESULT_SCHEMA_BYTES = 65_536;
/** Deepest nesting of a result schema's JSON (objects and arrays); strict mode's 10 object levels fit well within. */
export const MAX_RESULT_SCHEMA_DEPTH = 64;

/**
 * Lists what keeps `schema` from being a closed result schema, each with its JSON path: the root must be an object
 * schema; every object sets `additionalProperties: false` and lists every property in `required` (optional values
 * are nullable); only strict mode's keywords (`STRICT_KEYWORDS` of `@core/runtime`), with strict mode's limits (5000 properties,
 * 10 levels of nesting, 1000 enum values); every `pattern` one the linear-time engine runs (`compileLinearPattern` of
 * `@core/runtime`: no backreferences or lookaround); no key named `__proto__`; `$ref`s resolved through own
 * properties; and Ajv must compile it. An empty list means the schema is accepted. The JSON's shape (depth, keys) is
 * checked first, without recursion, so no schema can exhaust the stack.
 */
export function checkClosedResultSchema(schema: unknown, validator: ResultSchemaValidator): ResultSchemaIssue[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return [{ path: '$', message: `the result schema must be a JSON Schema object, got ${schema === null ? 'null' : Array.isArray(schema) ? 'an array' : typeof schema}.` }];
  }
  const shape = checkSchemaShape(schema);
  if (shape !== undefined) return [shape];
  const text = JSON.stringify(schema);
  if (Buffer.byteLength(text) > MAX_RESULT_SCHEMA_BYTES) {
    return [{ path: '$', message: `the result schema is ${Buffer.byteLength(text)} bytes of JSON; at most ${MAX_RESULT_SCHEMA_BYTES} are allowed.` }];
  }
  const issues: ResultSchemaIssue[] = [];
  walk(schema as JsonObject, '$', issues);
  for (const issue of checkStrictSchema(schema as JsonObject)) {
    if (!issues.some((known) => known.path === issue.path && known.message === issue.message)) issues.push(issue);
  }
  if (issues.length === 0) {
    const compiled = validator.compile(schema as JsonObject);
    if (!compiled.ok) issues.push({ path: '$', message: `the schema does not compile: ${compiled.message}` });
  }
  return issues;
}

/** Checks the keywords, types and `required` lists of every schema node (strict mode's own checks come from the runtime). */
function walk(node: unknown, path: string, issues: ResultSchemaIssue[]): void {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return; // reported by checkStrictSchema
  const schema = node as JsonObject;
  for (const keyword of Object.keys(schema)) {
    if (!STRICT_KEYWORDS.has(keyword)) {
      issues.push({ path, message: `"${keyword}" is not a strict-mode keyword; use only ${[...STRICT_KEYWORDS].join(', ')}.` });
    }
  }
  const pattern = schema['pattern'];
  if (pattern !== undefined) {
    if (typeof pattern !== 'string') issues.push({ path: jsonPathChild(path, 'pattern'), message: '"pattern" must be a string.' });
    else {
      try {
        compileLinearPattern(pattern);
      } catch (error) {
        issues.push({ path: jsonPathChild(path, 'pattern'), message: `the pattern ${JSON.stringify(pattern)} is refused: ${(error as Error).message}.` });
      }
    }
  }
  const type = schema['type'];
  for (const entry of Array.isArray(type) ? type : type === undefined ? [] : [type]) {
    if (typeof entry !== 'string' || !JSON_TYPES.has(entry)) issues.push({ path, message: `"type" ${JSON.stringify(entry)} is not a JSON type.` });
  }
  const properties = schema['properties'];
  const required = schema['required'];
  if (required !== undefined) {
    const names = typeof properties === 'object' && properties !== null && !Array.isArray(properties) ? Object.keys(properties) : [];
    if (!Array.isArray(required) || required.some((name) => typeof name !== 'string')) {
      issues.push({ path, message: '"required" must be an array of property names.' });
    } else {
      const unknown = required.filter((name) => !names.includes(name as string));
      if (unknown.length > 0) issues.push({ path, message: `"required" names properties the schema does not define: ${unknown.join(', ')}.` });
    }
  }
  for (const container of ['properties', '$defs', 'definitions'] as const) {
    const children = schema[container];
    if (typeof children === 'object' && children !== null && !Array.isArray(children)) {
      for (const [name, child] of Object.entries(children)) walk(child, jsonPathChild(jsonPathChild(path, container), name), issues);
    }
  }
  if (schema['items'] !== undefined && !Array.isArray(schema['items'])) walk(schema['items'], jsonPathChild(path, 'items'), issues);
  const anyOf = schema['anyOf'];
  if (Array.isArray(anyOf)) anyOf.forEach((branch, index) => walk(branch, jsonPathChild(jsonPathChild(path, 'anyOf'), index), issues));
}

/**
 * The first problem with a schema's JSON as data, walked without recursion: nesting deeper than
 * `MAX_RESULT_SCHEMA_DEPTH`, or a key named `__proto__` (no value could ever match such a property, and a `$ref`
 * through it would reach outside the schema).
 */
function checkSchemaShape(schema: object): ResultSchemaIssue | undefined {
  const stack: Array<{ node: unknown; path: string; depth: number }> = [{ node: schema, path: '$', depth: 1 }];
  while (stack.length > 0) {
    const { node, path, depth } = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > MAX_RESULT_SCHEMA_DEPTH) {
      return { path, message: `the result schema nests deeper than ${MAX_RESULT_SCHEMA_DEPTH} levels of JSON here; strict mode allows 10 levels of objects.` };
    }
    const entries: Array<[string | number, unknown]> = Array.isArray(node) ? node.map((item, index) => [index, item]) : Object.entries(node);
    for (const [key, child] of entries) {
      if (key === '__proto__') return { path: jsonPathChild(path, key), message: 'the key "__proto__" is not allowed in a result schema (no value can have such a property); rename it.' };
      stack.push({ node: child, path: jsonPathChild(path, key), depth: depth + 1 });
    }
  }
  return undefined;
}

/** `checkClosedResultSchema` with its answers remembered by the schema's JSON text (a replay checks the same schemas again). */
export interface ClosedSchemaChecker {
  /** `text`: the schema's JSON text when the caller has it already (the cache's key). */
  check(schema: unknown, text?: string): ResultSchemaIssue[];
}

/** Creates a `ClosedSchemaChecker` remembering the last 500 schemas it checked. */
export function createClosedSchemaChecker(validator: ResultSchemaValidator): ClosedSchemaChecker {
  const cache = new Map<string, ResultSchemaIssue[]>();
  return {
    check(schema, text) {
      // The key is the schema's JSON text: callers bound the nesting of what they pass (task() does); a schema too
      // deep to serialise is checked without the cache (its shape check refuses it).
      let key: string | undefined;
      try {
        key = typeof schema === 'object' && schema !== null ? (text ?? JSON.stringify(schema)) : undefined;
      } catch {
        return checkClosedResultSchema(schema, validator);
      }
      const cached = key === undefined ? undefined : cache.get(key);
      if (cached !== undefined) return cached;
      const issues = checkClosedResultSchema(schema, validator);
      if (key !== undefined) {
        cache.set(key, issues);
        if (cache.size > 500) cache.delete(cache.keys().next().value as string);
      }
      return issues;
    },
  };
}
