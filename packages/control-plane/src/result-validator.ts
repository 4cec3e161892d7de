import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import type { JsonObject, ResultSchemaProblem } from './workflow-client.js';

type AjvInstance = InstanceType<typeof Ajv2020Module>;
type AjvConstructor = new (options: Options) => AjvInstance;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvConstructor }).default ?? Ajv2020Module) as unknown as AjvConstructor;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: AjvInstance) => unknown;

/** A compiled result schema: `check(value)` lists each mismatch with its path (empty when the value matches). */
export type CompiledResultSchema = { ok: true; check: (value: unknown) => ResultSchemaProblem[] } | { ok: false; message: string };

/** Compiles result schemas with one Ajv instance, caching the most recently used ones. */
export interface ResultSchemaValidator {
  compile(schema: JsonObject): CompiledResultSchema;
}

const MAX_CACHED = 500;
const MAX_PROBLEMS = 20;

/**
 * A validator of task results against their stored schemas: Ajv (JSON Schema 2020-12) with all errors, the
 * strict-mode string formats, and own properties only (`ownProperties`: an inherited `toString` never counts as
 * present). Compiled schemas are cached by their JSON text (the last 500).
 */
export function createResultValidator(): ResultSchemaValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, addUsedSchema: false, ownProperties: true });
  addFormats(ajv);
  const cache = new Map<string, CompiledResultSchema>();
  return {
    compile(schema) {
      const key = JSON.stringify(schema);
      const cached = cache.get(key);
      if (cached !== undefined) {
        cache.delete(key);
        cache.set(key, cached);
        return cached;
      }
      let compiled: CompiledResultSchema;
      try {
        const validate = ajv.compile(JSON.parse(key) as JsonObject);
        compiled = { ok: true, check: (value) => problems(validate, value) };
      } catch (error) {
        compiled = { ok: false, message: error instanceof Error ? error.message : String(error) };
      }
      cache.set(key, compiled);
      if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
      return compiled;
    },
  };
}

function problems(validate: ValidateFunction, value: unknown): ResultSchemaProblem[] {
  if (validate(value)) return [];
  const seen = new Set<string>();
  const out: ResultSchemaProblem[] = [];
  for (const error of validate.errors ?? []) {
    const problem = describe(error);
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(problem);
    if (out.length >= MAX_PROBLEMS) break;
  }
  return out;
}

/** An Ajv error as a path (`$.facts[2]`, the offending property included) and a message. */
function describe(error: ErrorObject): ResultSchemaProblem {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  const params = error.params as Record<string, unknown>;
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'required') {
    segments.push(String(params['missingProperty']));
    message = 'is required but missing';
  } else if (error.keyword === 'additionalProperties') {
    segments.push(String(params['additionalProperty']));
    message = 'is not allowed (the schema does not define this property)';
  } else if (error.keyword === 'enum') {
    message = `must be one of ${JSON.stringify(params['allowedValues'])}`;
  }
  const path = segments.reduce((at, segment) => (/^\d+$/.test(segment) ? `${at}[${segment}]` : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment) ? `${at}.${segment}` : `${at}[${JSON.stringify(segment)}]`), '$');
  return { path, message };
}
