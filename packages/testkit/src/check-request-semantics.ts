import { invalidRequest, type ApiErrorBody } from './api-error.js';
import { checkStrictFunctionTools } from './check-strict-function-tools.js';

type Item = Record<string, unknown>;

function isObject(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Client-executed call types besides function calls, the output type that answers each, and how the API names the call. */
const OTHER_CALL_OUTPUTS: ReadonlyArray<{ call: string; output: string; words: string }> = [
  { call: 'custom_tool_call', output: 'custom_tool_call_output', words: 'custom tool call' },
  { call: 'apply_patch_call', output: 'apply_patch_call_output', words: 'apply patch call' },
  { call: 'shell_call', output: 'shell_call_output', words: 'shell call' },
];

function checkToolOutputs(body: Item): ApiErrorBody | undefined {
  if (!Array.isArray(body.input)) return undefined;
  const items = body.input.filter(isObject);
  const continuesEarlierState = body.previous_response_id != null || body.conversation != null;
  for (const [index, item] of items.entries()) {
    const later = items.slice(index + 1);
    if (item.type === 'function_call' && typeof item.call_id === 'string') {
      const answered = later.some((other) => other.type === 'function_call_output' && other.call_id === item.call_id);
      if (!answered) return invalidRequest(`No tool output found for function call ${item.call_id}.`, 'input');
    }
    const other = OTHER_CALL_OUTPUTS.find((kind) => kind.call === item.type);
    if (other !== undefined && typeof item.call_id === 'string') {
      const answered = later.some((next) => next.type === other.output && next.call_id === item.call_id);
      if (!answered) return invalidRequest(`No tool output found for ${other.words} ${item.call_id}.`, 'input');
    }
    if (item.type === 'tool_search_call' && item.execution === 'client' && typeof item.call_id === 'string') {
      const answered = later.some((other) => other.type === 'tool_search_output' && other.call_id === item.call_id);
      if (!answered) return invalidRequest(`No tool output found for tool search call ${item.call_id}.`, 'input');
    }
  }
  if (!continuesEarlierState) {
    for (const [index, item] of items.entries()) {
      if (typeof item.call_id !== 'string') continue;
      const earlier = items.slice(0, index);
      if (item.type === 'function_call_output' && !earlier.some((other) => other.type === 'function_call' && other.call_id === item.call_id)) {
        return invalidRequest(`No tool call found for function call output with call_id ${item.call_id}.`, 'input');
      }
      const other = OTHER_CALL_OUTPUTS.find((kind) => kind.output === item.type);
      if (other !== undefined && !earlier.some((call) => call.type === other.call && call.call_id === item.call_id)) {
        return invalidRequest(`No tool call found for ${other.words} output with call_id ${item.call_id}.`, 'input');
      }
    }
  }
  return undefined;
}

function toolName(tool: Item): string | undefined {
  if (typeof tool.name === 'string') return tool.name;
  return undefined;
}

function checkToolNames(body: Item): ApiErrorBody | undefined {
  if (!Array.isArray(body.tools)) return undefined;
  const seen = new Set<string>();
  for (const [index, tool] of body.tools.entries()) {
    if (!isObject(tool)) continue;
    const name = toolName(tool);
    if (name !== undefined) {
      if (seen.has(name)) return invalidRequest(`Invalid 'tools[${index}].name': duplicate tool name '${name}'.`, `tools[${index}].name`, 'invalid_value');
      seen.add(name);
    }
    if (tool.type === 'namespace' && Array.isArray(tool.tools)) {
      const inner = new Set<string>();
      for (const [innerIndex, member] of tool.tools.entries()) {
        if (!isObject(member)) continue;
        const memberName = toolName(member);
        if (memberName === undefined) continue;
        if (inner.has(memberName)) {
          const param = `tools[${index}].tools[${innerIndex}].name`;
          return invalidRequest(`Invalid '${param}': duplicate tool name '${memberName}' in namespace '${name}'.`, param, 'invalid_value');
        }
        inner.add(memberName);
      }
    }
  }
  return undefined;
}

/**
 * Checks the API enforces beyond the schema: `model` is given, every `function_call` in the input is followed by its
 * `function_call_output` (a `custom_tool_call`, `apply_patch_call` or `shell_call` by its own output type), every
 * client `tool_search_call` by its `tool_search_output`, every output answers a call in the input (unless `previous_response_id` / `conversation` continues earlier state),
 * tool names are unique, and `strict: true` function tools have a schema strict mode takes
 * (`checkStrictFunctionTools`: 400 `invalid_function_parameters`). Returns the API's 400 body, or `undefined` when the request is fine.
 */
export function checkRequestSemantics(body: unknown): ApiErrorBody | undefined {
  if (!isObject(body)) return invalidRequest('The request body must be a JSON object.', null);
  if (body.model === undefined) return invalidRequest("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  return checkToolOutputs(body) ?? checkToolNames(body) ?? checkStrictFunctionTools(body);
}
