import type { ErrorObject } from 'ajv';
import { invalidRequest, type ApiErrorBody } from './api-error.js';

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
export function pickSchemaError(errors: readonly ErrorObject[]): ErrorObject | undefined {
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

/**
 * The API's 400 body for Ajv errors: the most telling error (`pickSchemaError`) worded as the API words it
 * (`Missing required parameter: 'input[1].output'.`, `Unknown parameter: 'x'.`, `Invalid type for ...`,
 * `Invalid value for ...`), with `param` and `code` set. `where(error)` is appended to every message but the
 * unknown-parameter one, to say which schema refused the body.
 */
export function describeSchemaErrors(errors: readonly ErrorObject[], what: string, where: (error: ErrorObject) => string): ApiErrorBody {
  const error = pickSchemaError(errors);
  if (error === undefined) return invalidRequest(`The request body does not conform to ${what}.`);
  const suffix = where(error);
  if (error.keyword === 'required') {
    const param = instancePathToParam(error.instancePath, String(error.params.missingProperty));
    return invalidRequest(`Missing required parameter: '${param}'.${suffix}`, param, 'missing_required_parameter');
  }
  if (error.keyword === 'additionalProperties') {
    const param = instancePathToParam(error.instancePath, String(error.params.additionalProperty));
    return invalidRequest(`Unknown parameter: '${param}'.`, param, 'unknown_parameter');
  }
  const param = instancePathToParam(error.instancePath);
  const label = param === '' ? 'the request body' : `'${param}'`;
  if (error.keyword === 'type') {
    const types = [
      ...new Set(
        errors.filter((other) => other.keyword === 'type' && other.instancePath === error.instancePath).map((other) => String(other.params.type)),
      ),
    ];
    return invalidRequest(`Invalid type for ${label}: expected ${types.join(' or ')}.${suffix}`, param || null, 'invalid_type');
  }
  if (error.keyword === 'enum' || error.keyword === 'const') {
    const values = error.keyword === 'enum' ? (error.params.allowedValues as unknown[]) : [error.params.allowedValue];
    const allowed = values.map((value) => JSON.stringify(value)).join(', ');
    return invalidRequest(`Invalid value for ${label}: expected ${values.length === 1 ? '' : 'one of '}${allowed}.${suffix}`, param || null, 'invalid_value');
  }
  return invalidRequest(`Invalid value for ${label}: ${error.message ?? 'does not conform'}.${suffix}`, param || null, 'invalid_value');
}
