import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { ApiErrorBody } from './api-error.js';
import { describeSchemaErrors } from './describe-schema-errors.js';
import { loadAjv2020 } from './load-ajv.js';
import { responsesRequestSchema } from './responses-request-schema.js';

/** Validates request bodies against the testkit's own description of `CreateResponse`. */
export interface ResponsesRequestValidator {
  /** Returns the API's 400 body naming the failing path, or `undefined` when the body conforms. */
  validate(body: unknown): ApiErrorBody | undefined;
  /** How long compiling took, in milliseconds. */
  readonly compileMs: number;
}

/**
 * Compiles `responsesRequestSchema()` (Ajv, JSON Schema 2020-12) into a validator whose 400 bodies read like
 * the API's: `Missing required parameter: 'input[1].output'.`, `Unknown parameter: 'input[0].foo'.`,
 * `Invalid type for 'temperature': expected number or null.`, `Invalid value for 'tools[0].type': expected one
 * of ...` (codes `missing_required_parameter`, `unknown_parameter`, `invalid_type`, `invalid_value`; the message
 * names the schema path). Needs no file: `startTestModelServer` checks every request with it (through
 * `sharedResponsesRequestValidator`). Compiling takes tens of milliseconds; share one validator where many are made.
 */
export function createResponsesRequestValidator(): ResponsesRequestValidator {
  const started = performance.now();
  const Ajv2020 = loadAjv2020();
  const ajv = new Ajv2020({ strict: false, logger: false, allErrors: false, inlineRefs: false });
  const validateFunction: ValidateFunction = ajv.compile(responsesRequestSchema());
  const compileMs = performance.now() - started;
  return {
    compileMs,
    validate(body) {
      if (validateFunction(body)) return undefined;
      return describeSchemaErrors(validateFunction.errors ?? [], 'CreateResponse', (error) => ` (testkit: does not conform to its description of CreateResponse; schema path ${error.schemaPath})`);
    },
  };
}

let shared: ResponsesRequestValidator | undefined;

/**
 * The process's one `createResponsesRequestValidator()`, compiled on first use: a pure function of the committed
 * description, so every test model server of a test file shares it instead of compiling its own.
 */
export function sharedResponsesRequestValidator(): ResponsesRequestValidator {
  shared ??= createResponsesRequestValidator();
  return shared;
}
