import { invalidRequest, type ApiErrorBody } from './api-error.js';

type Node = Record<string, unknown>;

/** Keywords strict mode refuses (OpenAI structured outputs guide, "Supported schemas"). */
const REFUSED_KEYWORDS = [
  'allOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'patternProperties',
  'prefixItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contains',
];

/** Sub-schema keys the check walks into. */
const CHILD_MAPS = ['properties', '$defs', 'definitions'];
const CHILD_LISTS = ['anyOf'];

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isObjectSchema(node: Node): boolean {
  const type = node.type;
  return type === 'object' || (Array.isArray(type) && type.includes('object')) || (type === undefined && isNode(node.properties));
}

/** The API's `context=(...)` notation for a path of schema keys. */
function context(path: string[]): string {
  if (path.length === 0) return '()';
  if (path.length === 1) return `('${path[0]}',)`;
  return `(${path.map((key) => `'${key}'`).join(', ')})`;
}

/** The first strict-mode violation under `node`, worded like the API's, or `undefined`. */
function firstViolation(node: Node, path: string[]): string | undefined {
  for (const keyword of REFUSED_KEYWORDS) {
    if (keyword in node) return `In context=${context(path)}, '${keyword}' is not permitted.`;
  }
  if (isObjectSchema(node)) {
    if (node.additionalProperties !== false) {
      return `In context=${context(path)}, 'additionalProperties' is required to be supplied and to be false.`;
    }
    const keys = isNode(node.properties) ? Object.keys(node.properties) : [];
    const required = Array.isArray(node.required) ? node.required : [];
    const missing = keys.filter((key) => !required.includes(key));
    if (missing.length > 0) {
      return `In context=${context(path)}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'.`;
    }
  }
  for (const key of CHILD_MAPS) {
    const children = node[key];
    if (!isNode(children)) continue;
    for (const [name, child] of Object.entries(children)) {
      if (!isNode(child)) continue;
      const found = firstViolation(child, [...path, key, name]);
      if (found !== undefined) return found;
    }
  }
  for (const key of CHILD_LISTS) {
    const children = node[key];
    if (!Array.isArray(children)) continue;
    for (const [index, child] of children.entries()) {
      if (!isNode(child)) continue;
      const found = firstViolation(child, [...path, key, String(index)]);
      if (found !== undefined) return found;
    }
  }
  if (isNode(node.items)) return firstViolation(node.items, [...path, 'items']);
  return undefined;
}

/** The 400 for one function tool whose `strict: true` schema strict mode cannot take, or `undefined`. */
function checkFunctionTool(tool: unknown, param: string): ApiErrorBody | undefined {
  if (!isNode(tool) || tool.type !== 'function' || tool.strict !== true) return undefined;
  const name = typeof tool.name === 'string' ? tool.name : '';
  const parameters = tool.parameters;
  const invalid = (detail: string) =>
    invalidRequest(`Invalid schema for function '${name}': ${detail}`, `${param}.parameters`, 'invalid_function_parameters');
  if (!isNode(parameters) || parameters.type !== 'object') {
    const type = isNode(parameters) && parameters.type !== undefined ? JSON.stringify(parameters.type) : '"None"';
    return invalid(`schema must be a JSON Schema of 'type: "object"', got 'type: ${type}'.`);
  }
  const violation = firstViolation(parameters, []);
  return violation === undefined ? undefined : invalid(violation);
}

/**
 * What the API does with `strict: true` function tools (top level, inside a `namespace`, and in a client
 * `tool_search_output`): a schema strict mode cannot take is refused with 400 `invalid_function_parameters`
 * (param `tools[i].parameters`). Checked: an object root; every object closed (`additionalProperties: false`) with
 * every property in `required`; none of the refused keywords (`allOf`, `oneOf`, `not`, ...), recursively through
 * `properties`, `items`, `anyOf` and `$defs`. Returns the API's 400 body, or `undefined`.
 */
export function checkStrictFunctionTools(body: Node): ApiErrorBody | undefined {
  if (Array.isArray(body.tools)) {
    for (const [index, tool] of body.tools.entries()) {
      const found = checkFunctionTool(tool, `tools[${index}]`);
      if (found !== undefined) return found;
      if (isNode(tool) && tool.type === 'namespace' && Array.isArray(tool.tools)) {
        for (const [inner, member] of tool.tools.entries()) {
          const nested = checkFunctionTool(member, `tools[${index}].tools[${inner}]`);
          if (nested !== undefined) return nested;
        }
      }
    }
  }
  if (Array.isArray(body.input)) {
    for (const [index, item] of body.input.entries()) {
      if (!isNode(item) || item.type !== 'tool_search_output' || !Array.isArray(item.tools)) continue;
      for (const [inner, tool] of item.tools.entries()) {
        const loaded = [tool, ...(isNode(tool) && tool.type === 'namespace' && Array.isArray(tool.tools) ? tool.tools : [])];
        for (const candidate of loaded) {
          const found = checkFunctionTool(candidate, `input[${index}].tools[${inner}]`);
          if (found !== undefined) return found;
        }
      }
    }
  }
  return undefined;
}
