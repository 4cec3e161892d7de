import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { invalidRequest, type ApiErrorBody } from './api-error.js';
import { TestkitError } from './testkit-error.js';

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

/** `/input/0/content` → `input[0].content`. */
export function instancePathToParam(instancePath: string, property?: string): string {
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (property !== undefined) segments.push(property);
  let param = '';
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) param += `[${segment}]`;
    else param += param === '' ? segment : `.${segment}`;
  }
  return param;
}

const COMBINATORS = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'not', '$ref']);

/** Picks the most telling error: the deepest instance path, preferring concrete keywords over combinators. */
function pickError(errors: ErrorObject[]): ErrorObject | undefined {
  const depth = (error: ErrorObject) =>
    error.instancePath.split('/').length + (error.keyword === 'required' || error.keyword === 'additionalProperties' ? 1 : 0);
  let best: ErrorObject | undefined;
  for (const error of errors) {
    if (best === undefined) {
      best = error;
      continue;
    }
    const better =
      depth(error) > depth(best) || (depth(error) === depth(best) && COMBINATORS.has(best.keyword) && !COMBINATORS.has(error.keyword));
    if (better) best = error;
  }
  return best;
}

function describeErrors(errors: ErrorObject[], schemaName: string): ApiErrorBody {
  const error = pickError(errors);
  if (error === undefined) return invalidRequest(`The request body does not conform to ${schemaName}.`);
  const where = ` (testkit: does not conform to #/components/schemas/${schemaName}; schema path ${error.schemaPath})`;
  if (error.keyword === 'required') {
    const param = instancePathToParam(error.instancePath, String(error.params.missingProperty));
    return invalidRequest(`Missing required parameter: '${param}'.${where}`, param, 'missing_required_parameter');
  }
  if (error.keyword === 'additionalProperties') {
    const param = instancePathToParam(error.instancePath, String(error.params.additionalProperty));
    return invalidRequest(`Unknown parameter: '${param}'.${where}`, param, 'unknown_parameter');
  }
  const param = instancePathToParam(error.instancePath);
  const label = param === '' ? 'the request body' : `'${param}'`;
  if (error.keyword === 'type') {
    const types = [
      ...new Set(
        errors.filter((other) => other.keyword === 'type' && other.instancePath === error.instancePath).map((other) => String(other.params.type)),
      ),
    ];
    return invalidRequest(`Invalid type for ${label}: expected ${types.join(' or ')}.${where}`, param || null, 'invalid_type');
  }
  if (error.keyword === 'enum') {
    const allowed = (error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ');
    return invalidRequest(`Invalid value for ${label}: expected one of ${allowed}.${where}`, param || null, 'invalid_value');
  }
  return invalidRequest(`Invalid value for ${label}: ${error.message ?? 'does not conform'}.${where}`, param || null, 'invalid_value');
}

/**
 * Reads an OpenAPI 3.1 document and compiles a validator for `#/components/schemas/CreateResponse`
 * (Ajv, JSON Schema 2020-12, `strict: false`, ajv-formats; OpenAPI `discriminator` objects removed).
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
  const ajv = new Ajv2020({ strict: false, logger: false, validateSchema: false, allErrors: false });
  addFormats(ajv);
  ajv.addFormat('unixtime', true);
  let validateFunction: ValidateFunction;
  try {
    ajv.addSchema(stripDiscriminators(document) as object, DOCUMENT_ID);
    validateFunction = ajv.compile({ $ref: `${DOCUMENT_ID}#/components/schemas/${schemaName}` });
  } catch (error) {
    throw new TestkitError('openapi_compile_failed', `Ajv could not compile #/components/schemas/${schemaName} of ${openapiPath}: ${(error as Error).message}`, { cause: error });
  }
  const compileMs = performance.now() - started;
  return {
    openapiPath,
    compileMs,
    validate(body) {
      if (validateFunction(body)) return undefined;
      return describeErrors(validateFunction.errors ?? [], schemaName);
    },
  };
}
