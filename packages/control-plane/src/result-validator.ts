import { createRequire } from 'node:module';
import type Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import { createLinearRegExpEngine, withProtoKeyRules } from '@core/runtime';
import type { JsonObject, ResultSchemaProblem } from '@core/control-plane-client';

type AjvInstance = InstanceType<typeof Ajv2020Module>;
type AjvConstructor = new (options: Options) => AjvInstance;

// Ajv and ajv-formats (CommonJS) are loaded with the first result schema compiled, not with the control plane.
// Resolved from this file's folder: the package's own dist (or src), or the folder of a bundle that inlines it.
const requireFromHere = createRequire(import.meta.url);

function newAjv(): AjvInstance {
  const Ajv2020Loaded = requireFromHere('ajv/dist/2020.js') as { default?: AjvConstructor };
  const Ajv2020 = (Ajv2020Loaded.default ?? Ajv2020Loaded) as unknown as AjvConstructor;
  const addFormatsLoaded = requireFromHere('ajv-formats') as { default?: unknown };
  const addFormats = (addFormatsLoaded.default ?? addFormatsLoaded) as (ajv: AjvInstance) => unknown;
  // Every `pattern` runs in linear time (RE2): no result can make a check backtrack (task() refuses the patterns it
  // cannot run).
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, addUsedSchema: false, ownProperties: true, code: { regExp: createLinearRegExpEngine() } });
  addFormats(ajv);
  return ajv;
}

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
 * strict-mode string formats, own properties only (`ownProperties`: an inherited `toString` never counts as
 * present; a property named `"__proto__"` is validated like any other, `withProtoKeyRules`), and `pattern` run in
 * linear time (`createLinearRegExpEngine` of `@core/runtime`). Compiled schemas are cached by their JSON text (the
 * last 500).
 */
export function createResultValidator(): ResultSchemaValidator {
  let ajv: AjvInstance | undefined;
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
      ajv ??= newAjv();
      let compiled: CompiledResultSchema;
      try {
        // Ajv skips a property named "__proto__": the compiled schema validates that key like any other.
        const validate = ajv.compile(withProtoKeyRules(JSON.parse(key) as JsonObject));
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
