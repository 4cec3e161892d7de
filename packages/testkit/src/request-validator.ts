import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { invalidRequest, type ApiErrorBody } from './api-error.js';
import { describeSchemaErrors, pickSchemaError } from './describe-schema-errors.js';
import { loadAddFormats, loadAjv2020 } from './load-ajv.js';
import { TestkitError } from './testkit-error.js';

export { instancePathToParam } from './describe-schema-errors.js';

/** Validates request bodies against `#/components/schemas/CreateResponse` of an OpenAPI document. */
export interface RequestValidator {
  /** Returns the API's 400 body naming the failing path, or `undefined` when the body conforms. */
  validate(body: unknown): ApiErrorBody | undefined;
  /** The OpenAPI file this validator was compiled from. */
  readonly openapiPath: string;
  /** How long reading and compiling took, in milliseconds. */
  readonly compileMs: number;
}

/** Options of `createRequestValidator`. */
export interface RequestValidatorOptions {
  /** The schema to validate against (default `CreateResponse`). */
  schemaName?: string;
}

const DOCUMENT_ID = 'testkit-openapi.json';

/** Removes the OpenAPI `discriminator` keyword, which Ajv cannot compile on these unions; `oneOf` still decides. */
function stripDiscriminators(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripDiscriminators);
  if (typeof value !== 'object' || value === null) return value;
  const result: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key === 'discriminator' && typeof entry === 'object' && entry !== null && 'propertyName' in entry) continue;
    result[key] = stripDiscriminators(entry);
  }
  return result;
}

type Schemas = Record<string, unknown>;

/** Names of the component schemas reachable from `root` through `$ref`s. */
function reachableSchemas(schemas: Schemas, root: string): Set<string> {
  const seen = new Set<string>();
  const pending = [root];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const entry of value) visit(entry);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, entry] of Object.entries(value)) {
        if (key === '$ref' && typeof entry === 'string' && entry.startsWith('#/components/schemas/')) {
          pending.push(entry.slice('#/components/schemas/'.length));
        } else {
          visit(entry);
        }
      }
    }
  };
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (seen.has(name) || schemas[name] === undefined) continue;
    seen.add(name);
    visit(schemas[name]);
  }
  return seen;
}

/**
 * The property names a schema declares at its top level, through `allOf` / `anyOf` / `oneOf` and `$ref`s to
 * component schemas (the parameters `CreateResponse` knows).
 */
function declaredProperties(schemas: Schemas, schema: unknown, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (typeof schema !== 'object' || schema === null) return names;
  const node = schema as Record<string, unknown>;
  const ref = node.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const name = ref.slice('#/components/schemas/'.length);
    if (!seen.has(name)) {
      seen.add(name);
      for (const found of declaredProperties(schemas, schemas[name], seen)) names.add(found);
    }
  }
  if (typeof node.properties === 'object' && node.properties !== null) for (const name of Object.keys(node.properties)) names.add(name);
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const branches = node[key];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) for (const found of declaredProperties(schemas, branch, seen)) names.add(found);
  }
  return names;
}

/** Maps a `type` tag (`function_call_output`, `namespace`, ...) to the reachable schemas that declare it, `*Param` ones first. */
function indexByTypeTag(schemas: Schemas, names: Set<string>): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const name of names) {
    const schema = schemas[name] as { properties?: { type?: { enum?: unknown[]; const?: unknown } } } | undefined;
    const tag = schema?.properties?.type;
    const values = tag?.enum ?? (tag?.const === undefined ? [] : [tag.const]);
    for (const value of values) {
      if (typeof value !== 'string') continue;
      const list = index.get(value) ?? [];
      list.push(name);
      index.set(value, list);
    }
  }
  for (const list of index.values()) list.sort((left, right) => Number(right.endsWith('Param')) - Number(left.endsWith('Param')));
  return index;
}

function pointer(segments: string[]): string {
  return segments.map((segment) => `/${segment.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

function valueAt(root: unknown, segments: string[]): unknown {
  let value = root;
  for (const segment of segments) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/**
 * Union errors often come from the wrong branch (a `function_call_output` item reported as a message
 * without `role`). When the failing value sits in an object with a `type` tag, re-validate that object
 * against the schemas declaring that tag and report their error instead.
 */
function refineByTypeTag(
  body: unknown,
  error: ErrorObject,
  typeIndex: Map<string, string[]>,
  validatorFor: (name: string) => ValidateFunction | undefined,
): ErrorObject[] | undefined {
  const segments = error.instancePath.split('/').slice(1).map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  for (let depth = segments.length; depth >= 1; depth -= 1) {
    const value = valueAt(body, segments.slice(0, depth));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
    const tag = (value as { type?: unknown }).type;
    if (typeof tag !== 'string') continue;
    const candidates = typeIndex.get(tag);
    if (candidates === undefined) {
      const instancePath = `${pointer(segments.slice(0, depth))}/type`;
      return [{ instancePath, schemaPath: '#/properties/type', keyword: 'type-tag', params: { tag }, message: `'${tag}' is not a known type here` }];
    }
    let firstErrors: ErrorObject[] | undefined;
    for (const name of candidates) {
      const validate = validatorFor(name);
      if (validate === undefined) continue;
      if (validate(value)) return undefined;
      firstErrors ??= validate.errors ?? [];
    }
    if (firstErrors === undefined) continue;
    const prefix = pointer(segments.slice(0, depth));
    return firstErrors.map((inner) => ({ ...inner, instancePath: prefix + inner.instancePath }));
  }
  return undefined;
}

function describeErrors(errors: ErrorObject[], schemaName: string): ApiErrorBody {
  return describeSchemaErrors(errors, schemaName, (error) => ` (testkit: does not conform to #/components/schemas/${schemaName}; schema path ${error.schemaPath})`);
}

/**
 * Reads an OpenAPI 3.1 document and compiles a validator for `#/components/schemas/CreateResponse`
 * (Ajv, JSON Schema 2020-12, `strict: false`, ajv-formats; OpenAPI `discriminator` objects removed).
 * For `CreateResponse`, a top-level parameter the schema does not declare is refused too (`Unknown parameter: 'x'.`,
 * code `unknown_parameter`), as the API does.
 * Compiling the 3.4 MB OpenAI document takes about half a second: compile once and share it between servers.
 * @throws {TestkitError} `openapi_unreadable` when the file cannot be read or parsed,
 *   `openapi_schema_missing` when the schema is not in it, `openapi_compile_failed` when Ajv refuses it.
 */
export function createRequestValidator(openapiPath: string, options: RequestValidatorOptions = {}): RequestValidator {
  const schemaName = options.schemaName ?? 'CreateResponse';
  const started = performance.now();
  let document: { components?: { schemas?: Record<string, unknown> } };
  try {
    document = JSON.parse(readFileSync(openapiPath, 'utf8')) as typeof document;
  } catch (error) {
    throw new TestkitError('openapi_unreadable', `Cannot read the OpenAPI document at ${openapiPath}: ${(error as Error).message}. Pass the path of openai-openapi.json.`, { cause: error });
  }
  if (document.components?.schemas?.[schemaName] === undefined) {
    throw new TestkitError('openapi_schema_missing', `The OpenAPI document at ${openapiPath} has no #/components/schemas/${schemaName}.`);
  }
  const Ajv2020 = loadAjv2020();
  const ajv = new Ajv2020({ strict: false, logger: false, validateSchema: false, allErrors: false });
  loadAddFormats()(ajv);
  ajv.addFormat('unixtime', true);
  let validateFunction: ValidateFunction;
  try {
    ajv.addSchema(stripDiscriminators(document) as object, DOCUMENT_ID);
    validateFunction = ajv.compile({ $ref: `${DOCUMENT_ID}#/components/schemas/${schemaName}` });
  } catch (error) {
    throw new TestkitError('openapi_compile_failed', `Ajv could not compile #/components/schemas/${schemaName} of ${openapiPath}: ${(error as Error).message}`, { cause: error });
  }
  const compileMs = performance.now() - started;
  const schemas = document.components.schemas;
  let typeIndex: Map<string, string[]> | undefined;
  const validatorFor = (name: string) => {
    try {
      return ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`);
    } catch {
      return undefined;
    }
  };
  // The document does not close CreateResponse, but the API refuses request parameters it does not know.
  const known = schemaName === 'CreateResponse' ? declaredProperties(schemas, schemas[schemaName]) : new Set<string>();
  return {
    openapiPath,
    compileMs,
    validate(body) {
      if (validateFunction(body)) {
        if (known.size === 0 || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
        const unknown = Object.keys(body).find((name) => !known.has(name));
        return unknown === undefined ? undefined : invalidRequest(`Unknown parameter: '${unknown}'.`, unknown, 'unknown_parameter');
      }
      const errors = validateFunction.errors ?? [];
      const picked = pickSchemaError(errors);
      if (picked === undefined) return describeErrors(errors, schemaName);
      typeIndex ??= indexByTypeTag(schemas, reachableSchemas(schemas, schemaName));
      const refined = refineByTypeTag(body, picked, typeIndex, validatorFor);
      return describeErrors(refined ?? errors, schemaName);
    },
  };
}
