import { closedObject, nullable, ref, taggedUnion, type JsonSchema } from './json-schema-builders.js';

/*
 * The input items our runtime sends (and echoes back from a response's output), written from the Responses API
 * reference: EasyInputMessage / InputMessage / OutputMessage, FunctionToolCall, FunctionCallOutputItemParam,
 * ReasoningItem, ToolSearchCallItemParam, ToolSearchOutputItemParam, ItemReferenceParam, CustomToolCall,
 * CustomToolCallOutput. Items of the API's other
 * kinds (built-in tool calls, MCP, shell, ...) pass on their `type` tag alone.
 */

const itemStatus = { enum: ['in_progress', 'completed', 'incomplete'] };
const callId = { type: 'string', minLength: 1, maxLength: 64 };
const caller = nullable({ type: 'object', required: ['type'], properties: { type: { enum: ['direct', 'program'] } } });

/** Item kinds the API accepts in `input` that this description does not detail. */
export const OTHER_ITEM_TYPES = [
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'web_search_call',
  'additional_tools',
  'compaction',
  'compaction_trigger',
  'image_generation_call',
  'code_interpreter_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'mcp_call',
  'program',
  'program_output',
] as const;

/** Definitions of the input items (they refer to the content and tool definitions). */
export function itemDefinitions(): Record<string, JsonSchema> {
  const messageFields = {
    type: { const: 'message' },
    id: { type: 'string' },
    role: { enum: ['user', 'assistant', 'system', 'developer'] },
    content: {},
    status: itemStatus,
    phase: nullable({ enum: ['commentary', 'final_answer'] }),
  };
  return {
    Message: {
      ...closedObject(messageFields, ['role', 'content']),
      if: { properties: { role: { const: 'assistant' } }, required: ['role'] },
      then: { properties: { content: ref('OutputContent') } },
      else: { properties: { content: ref('InputContent') } },
    },
    FunctionCall: closedObject(
      {
        type: { const: 'function_call' },
        id: { type: 'string' },
        call_id: { type: 'string' },
        namespace: { type: 'string' },
        name: { type: 'string' },
        arguments: { type: 'string' },
        caller,
        status: itemStatus,
      },
      ['type', 'call_id', 'name', 'arguments'],
    ),
    FunctionCallOutput: closedObject(
      {
        type: { const: 'function_call_output' },
        id: nullable({ type: 'string' }),
        call_id: nullable(callId),
        output: { anyOf: [{ type: 'string', maxLength: 10_485_760 }, { type: 'array', items: ref('InputContentPart') }] },
        name: nullable({ type: 'string', minLength: 1, maxLength: 128 }),
        namespace: nullable({ type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$' }),
        caller,
        status: nullable(itemStatus),
      },
      ['type', 'output'],
    ),
    ReasoningItem: closedObject(
      {
        type: { const: 'reasoning' },
        id: { type: 'string' },
        encrypted_content: nullable({ type: 'string' }),
        summary: { type: 'array', items: closedObject({ type: { const: 'summary_text' }, text: { type: 'string' } }, ['type', 'text']) },
        content: { type: 'array', items: closedObject({ type: { const: 'reasoning_text' }, text: { type: 'string' } }, ['type', 'text']) },
        status: itemStatus,
      },
      ['type', 'id', 'summary'],
    ),
    ToolSearchCall: closedObject(
      {
        type: { const: 'tool_search_call' },
        id: nullable({ type: 'string' }),
        call_id: nullable(callId),
        execution: { enum: ['server', 'client'] },
        arguments: { type: 'object' },
        status: nullable(itemStatus),
      },
      ['type', 'arguments'],
    ),
    ToolSearchOutput: closedObject(
      {
        type: { const: 'tool_search_output' },
        id: nullable({ type: 'string' }),
        call_id: nullable(callId),
        execution: { enum: ['server', 'client'] },
        tools: { type: 'array', items: ref('Tool') },
        status: nullable(itemStatus),
      },
      ['type', 'tools'],
    ),
    // CustomToolCall / CustomToolCallOutput: the input `CustomToolCall` has no `status` (the output item carries one).
    CustomToolCall: closedObject(
      {
        type: { const: 'custom_tool_call' },
        id: { type: 'string' },
        call_id: { type: 'string' },
        namespace: { type: 'string' },
        name: { type: 'string' },
        input: { type: 'string' },
        caller,
      },
      ['type', 'call_id', 'name', 'input'],
    ),
    CustomToolCallOutput: closedObject(
      {
        type: { const: 'custom_tool_call_output' },
        id: { type: 'string' },
        call_id: { type: 'string' },
        output: { anyOf: [{ type: 'string' }, { type: 'array', items: ref('InputContentPart') }] },
        caller,
      },
      ['type', 'call_id', 'output'],
    ),
    ItemReference: closedObject({ type: { const: 'item_reference' }, id: { type: 'string' } }, ['id']),
    // Without a `type`: a message when it has a `role` or no `id`, else an item reference.
    UntaggedItem: { if: { anyOf: [{ required: ['role'] }, { not: { required: ['id'] } }] }, then: ref('Message'), else: ref('ItemReference') },
    InputItem: taggedUnion({
      described: {
        message: 'Message',
        function_call: 'FunctionCall',
        function_call_output: 'FunctionCallOutput',
        reasoning: 'ReasoningItem',
        tool_search_call: 'ToolSearchCall',
        tool_search_output: 'ToolSearchOutput',
        item_reference: 'ItemReference',
        custom_tool_call: 'CustomToolCall',
        custom_tool_call_output: 'CustomToolCallOutput',
      },
      otherTags: OTHER_ITEM_TYPES,
      untagged: ref('UntaggedItem'),
    }),
  };
}
