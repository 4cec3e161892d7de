import { createRequire } from 'node:module';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import type Ajv2020Module from 'ajv/dist/2020.js';
import { createBoundedRegExpEngine } from './bounded-regexp.js';
import type { ValidationIssue } from './format-validation-message.js';
import { withProtoKeyRules } from '../schema/proto-key-schema.js';

/** A compiled JSON Schema: `check(value)` lists what is wrong (an empty list when the value is valid). */
export type CompiledJsonSchema = { ok: true; check: (value: unknown) => ValidationIssue[] } | { ok: false; message: string };

type Dialect = '2020-12' | '2019-09' | 'draft-07';
type AjvInstance = InstanceType<typeof Ajv2020Module>;
type AjvConstructor = new (options: Options) => AjvInstance;
type AddFormats = (ajv: AjvInstance) => unknown;

const OPTIONS: Options = {
  strict: false,
  allErrors: true,
  validateFormats: true,
  addUsedSchema: false,
  messages: true,
  // `required` and the property keywords look at own keys only: `{}` has no "toString" or "__proto__" to offer.
  ownProperties: true,
};
const MAX_ISSUES_PER_CHECK = 50;

// Ajv and ajv-formats (CommonJS) are loaded with the first schema compiled, not with the runtime: most tools are
// zod tools that never need them, and loading them took longer than the rest of a short CLI command.
// Resolved from this file's folder: the runtime's own dist (or src), or the folder of a bundle that inlines it
// (the `ankole` CLI keeps them as dependencies of its own).
const requireFromHere = createRequire(import.meta.url);
const DIALECT_MODULES: Record<Dialect, string> = { '2020-12': 'ajv/dist/2020.js', '2019-09': 'ajv/dist/2019.js', 'draft-07': 'ajv' };

// Caches (the only module state): one Ajv per dialect, created on first use; one compiled validator per schema object.
const instances = new Map<Dialect, AjvInstance>();
const compiled = new WeakMap<object, CompiledJsonSchema>();

/**
 * Compiles a tool's JSON Schema with Ajv, once per schema object (cached in a `WeakMap`). Draft 2020-12 by
 * default; `$schema` selects draft 2019-09 or draft-07 (draft-06 / draft-04 schemas are read as draft-07).
 * Ajv runs with `strict: false` (vendor keywords are ignored), all errors, own properties only (`ownProperties`:
 * inherited names such as `toString` never count as present) and the `ajv-formats` formats. A property named
 * `"__proto__"` is validated like any other (`withProtoKeyRules`), though Ajv alone would skip it.
 * Never throws: a schema Ajv cannot compile gives `{ ok: false, message }`.
 */
export function compileJsonSchema(schema: object): CompiledJsonSchema {
  const cached = compiled.get(schema);
  if (cached !== undefined) return cached;
  let result: CompiledJsonSchema;
  try {
    const { dialect, source } = pickDialect(schema as Record<string, unknown>);
    // Ajv skips a property named "__proto__": the schema it compiles validates that key like any other.
    const validate = compileSource(dialect, withProtoKeyRules(source));
    result = { ok: true, check: (value) => check(validate, value) };
  } catch (error) {
    result = { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  compiled.set(schema, result);
  return result;
}

/**
 * Compiles on the shared instance of the dialect (`addUsedSchema: false`, so tools sharing an `$id` do not clash).
 * Ajv cannot resolve a reference to the root (`"$ref": "#"`, how recursive root types are written) without adding
 * the schema, so a schema with an unresolvable reference is compiled again on an instance of its own.
 */
function compileSource(dialect: Dialect, source: Record<string, unknown>): ValidateFunction {
  const ajv = ajvFor(dialect);
  try {
    return ajv.compile(source);
  } catch (error) {
    if (!(error instanceof Error) || !/can't resolve reference/.test(error.message)) throw error;
    return newAjv(dialect, { addUsedSchema: true }).compile(source);
  } finally {
    // Ajv keeps every compiled schema in a strong cache; the validate function does not need it.
    ajv.removeSchema(source);
  }
}

function check(validate: ValidateFunction, value: unknown): ValidationIssue[] {
  if (validate(value)) return [];
  return toIssues(validate.errors ?? [], value);
}

function pickDialect(schema: Record<string, unknown>): { dialect: Dialect; source: Record<string, unknown> } {
  const declared = schema['$schema'];
  if (declared === undefined) return { dialect: '2020-12', source: schema };
  const text = String(declared);
  if (text.includes('2020-12')) return { dialect: '2020-12', source: schema };
  if (text.includes('2019-09')) return { dialect: '2019-09', source: schema };
  const { $schema: _declared, ...rest } = schema;
  if (text.includes('draft-07')) return { dialect: 'draft-07', source: schema };
  if (/draft-0[46]/.test(text)) return { dialect: 'draft-07', source: rest };
  return { dialect: '2020-12', source: rest };
}

function ajvFor(dialect: Dialect): AjvInstance {
  let ajv = instances.get(dialect);
  if (ajv === undefined) {
    ajv = newAjv(dialect);
    instances.set(dialect, ajv);
  }
  return ajv;
}

function newAjv(dialect: Dialect, overrides: Options = {}): AjvInstance {
  const Constructor = interop<AjvConstructor>(requireFromHere(DIALECT_MODULES[dialect]));
  // `pattern` / `patternProperties` come from external schemas: they run with a time limit (no ReDoS hang).
  const ajv = new Constructor({ ...OPTIONS, code: { regExp: createBoundedRegExpEngine() }, ...overrides });
  interop<AddFormats>(requireFromHere('ajv-formats'))(ajv);
  return ajv;
}

/** Ajv and ajv-formats are CommonJS modules whose `module.exports` also has a `default`. */
function interop<T>(module: unknown): T {
  const withDefault = module as { default?: unknown };
  return (typeof withDefault.default === 'function' ? withDefault.default : module) as T;
}

/** Ajv errors as issues with a path the model can read; `anyOf` / `oneOf` branches folded into one line. */
function toIssues(errors: readonly ErrorObject[], value: unknown): ValidationIssue[] {
  const unions = errors.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf');
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (issues.length >= MAX_ISSUES_PER_CHECK) break;
    const inUnion = unions.some((union) => union !== error && error.schemaPath.startsWith(`${union.schemaPath}/`));
    if (inUnion) continue;
    const path = pointerToPath(error.instancePath, value);
    let issue: ValidationIssue;
    switch (error.keyword) {
      case 'required':
        issue = { path: [...path, String(error.params['missingProperty'])], message: 'missing required property' };
        break;
      case 'additionalProperties':
        issue = { path: [...path, String(error.params['additionalProperty'])], message: 'unknown property (not allowed by the schema)' };
        break;
      case 'type':
        issue = { path, message: `expected ${String(error.params['type']).replaceAll(',', ' or ')}`, showReceived: true };
        break;
      case 'enum':
        issue = { path, message: `expected one of ${listValues(error.params['allowedValues'])}`, showReceived: true };
        break;
      case 'const':
        issue = { path, message: `expected ${JSON.stringify(error.params['allowedValue'])}`, showReceived: true };
        break;
      case 'anyOf':
      case 'oneOf': {
        const branchTypes = errors
          .filter((other) => other.keyword === 'type' && other.instancePath === error.instancePath && other.schemaPath.startsWith(`${error.schemaPath}/`))
          .map((other) => String(other.params['type']));
        const branches = errors.filter((other) => other.schemaPath.startsWith(`${error.schemaPath}/`) && other.instancePath === error.instancePath);
        issue =
          branchTypes.length > 0 && branchTypes.length === branches.length
            ? { path, message: `expected ${[...new Set(branchTypes)].join(' or ')}`, showReceived: true }
            : { path, message: `does not match any of the allowed shapes (${error.keyword})`, showReceived: true };
        break;
      }
      default:
        issue = { path, message: error.message ?? `fails the "${error.keyword}" rule`, showReceived: true };
    }
    const key = `${JSON.stringify(issue.path)} ${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

/** `/items/2/name` → `['items', 2, 'name']` (array indexes as numbers, found by walking the value). */
function pointerToPath(pointer: string, value: unknown): Array<string | number> {
  if (pointer === '') return [];
  const path: Array<string | number> = [];
  let node = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(node)) {
      const index = Number(key);
      path.push(index);
      node = node[index];
    } else {
      path.push(key);
      node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
    }
  }
  return path;
}

function listValues(values: unknown): string {
  if (!Array.isArray(values)) return 'the allowed values';
  const shown = values.slice(0, 10).map((entry) => JSON.stringify(entry));
  return values.length > 10 ? `${shown.join(', ')}, … (${values.length} in all)` : shown.join(', ');
}
