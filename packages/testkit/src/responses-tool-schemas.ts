import { closedObject, nullable, ref, taggedUnion, type JsonSchema } from './json-schema-builders.js';

/*
 * The tools our runtime sends and `tool_choice`, written from the Responses API reference (FunctionTool,
 * FunctionToolParam, NamespaceToolParam, ToolSearchToolParam, CustomToolParam, ToolChoiceParam). The built-in
 * tools (web search, file search, MCP, ...) pass on their `type` tag alone. What strict mode accepts inside a
 * function's `parameters` is checked by `checkStrictFunctionTools`, not here.
 */

/** Built-in tool kinds the API accepts that this description does not detail. */
export const OTHER_TOOL_TYPES = [
  'file_search',
  'computer',
  'computer_use_preview',
  'web_search',
  'web_search_2025_08_26',
  'mcp',
  'code_interpreter',
  'programmatic_tool_calling',
  'image_generation',
  'local_shell',
  'shell',
  'web_search_preview',
  'web_search_preview_2025_03_11',
  'apply_patch',
] as const;

/** A function name as the API takes it: letters, digits, `_` and `-`, at most 128 characters. */
const functionName = { type: 'string', minLength: 1, maxLength: 128, pattern: '^[a-zA-Z0-9_-]+$' };
const allowedCallers = nullable({ type: 'array', minItems: 1, items: { enum: ['direct', 'programmatic'] } });

function functionFields(): Record<string, JsonSchema> {
  return {
    type: { const: 'function' },
    name: functionName,
    description: nullable({ type: 'string' }),
    parameters: nullable({ type: 'object' }),
    output_schema: nullable({ type: 'object' }),
    strict: nullable({ type: 'boolean' }),
    defer_loading: { type: 'boolean' },
    allowed_callers: allowedCallers,
  };
}

/** Definitions of the tools and of `tool_choice`. */
export function toolDefinitions(): Record<string, JsonSchema> {
  return {
    // A function in `tools` (or loaded by a tool_search_output) states `strict` and `parameters`, even as null.
    FunctionTool: closedObject(functionFields(), ['type', 'name', 'strict', 'parameters']),
    // A function inside a namespace may leave them out.
    NamespaceFunctionTool: closedObject(functionFields(), ['type', 'name']),
    CustomTool: closedObject(
      {
        type: { const: 'custom' },
        name: functionName,
        description: { type: 'string' },
        format: { type: 'object', required: ['type'], properties: { type: { enum: ['text', 'grammar'] } } },
        defer_loading: { type: 'boolean' },
        allowed_callers: allowedCallers,
      },
      ['type', 'name'],
    ),
    NamespaceTool: closedObject(
      {
        type: { const: 'namespace' },
        name: { type: 'string', minLength: 1 },
        description: { type: 'string' },
        tools: { type: 'array', minItems: 1, items: taggedUnion({ described: { function: 'NamespaceFunctionTool', custom: 'CustomTool' } }) },
      },
      ['type', 'name', 'description', 'tools'],
    ),
    ToolSearchTool: closedObject(
      {
        type: { const: 'tool_search' },
        execution: { enum: ['server', 'client'] },
        description: nullable({ type: 'string' }),
        parameters: nullable({ type: 'object' }),
      },
      ['type'],
    ),
    Tool: taggedUnion({
      described: { function: 'FunctionTool', custom: 'CustomTool', namespace: 'NamespaceTool', tool_search: 'ToolSearchTool' },
      otherTags: OTHER_TOOL_TYPES,
    }),
    ToolChoice: {
      anyOf: [
        { enum: ['none', 'auto', 'required'] },
        taggedUnion({
          described: { function: 'ToolChoiceNamed', custom: 'ToolChoiceNamed', allowed_tools: 'ToolChoiceAllowed' },
          otherTags: ['file_search', 'web_search_preview', 'computer', 'computer_use_preview', 'computer_use', 'web_search_preview_2025_03_11', 'image_generation', 'code_interpreter', 'mcp', 'programmatic_tool_calling', 'apply_patch', 'shell'],
        }),
      ],
    },
    ToolChoiceNamed: closedObject({ type: { enum: ['function', 'custom'] }, name: { type: 'string' } }, ['type', 'name']),
    ToolChoiceAllowed: closedObject(
      { type: { const: 'allowed_tools' }, mode: { enum: ['auto', 'required'] }, tools: { type: 'array', items: { type: 'object', required: ['type'] } } },
      ['type', 'mode', 'tools'],
    ),
  };
}

