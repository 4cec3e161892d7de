import { closedObject, nullable, ref, taggedUnion, type JsonSchema } from './json-schema-builders.js';
import { contentDefinitions } from './responses-content-schemas.js';
import { itemDefinitions } from './responses-item-schemas.js';
import { toolDefinitions } from './responses-tool-schemas.js';

/** The values `include` takes. */
const INCLUDE_VALUES = [
  'file_search_call.results',
  'web_search_call.results',
  'web_search_call.action.sources',
  'message.input_image.image_url',
  'computer_call_output.output.image_url',
  'code_interpreter_call.outputs',
  'reasoning.encrypted_content',
  'message.output_text.logprobs',
];

const summaryMode = nullable({ enum: ['auto', 'concise', 'detailed'] });

/** Definitions of the request parameters that are objects of their own (`reasoning`, `text`, ...). */
function parameterDefinitions(): Record<string, JsonSchema> {
  return {
    ReasoningOptions: closedObject({
      mode: { type: 'string' },
      effort: nullable({ enum: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] }),
      summary: summaryMode,
      generate_summary: summaryMode,
      context: nullable({ enum: ['auto', 'current_turn', 'all_turns'] }),
    }),
    TextFormat: taggedUnion({
      described: { text: 'TextFormatPlain', json_object: 'TextFormatJsonObject', json_schema: 'TextFormatJsonSchema' },
    }),
    TextFormatPlain: closedObject({ type: { const: 'text' } }, ['type']),
    TextFormatJsonObject: closedObject({ type: { const: 'json_object' } }, ['type']),
    TextFormatJsonSchema: closedObject(
      {
        type: { const: 'json_schema' },
        name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' },
        description: { type: 'string' },
        schema: { type: 'object' },
        strict: nullable({ type: 'boolean' }),
      },
      ['type', 'name', 'schema'],
    ),
    TextOptions: closedObject({ format: ref('TextFormat'), verbosity: nullable({ enum: ['low', 'medium', 'high'] }) }),
    // Up to 16 pairs; keys at most 64 characters, values strings of at most 512 (the API reference's Metadata).
    Metadata: nullable({ type: 'object', maxProperties: 16, propertyNames: { maxLength: 64 }, additionalProperties: { type: 'string', maxLength: 512 } }),
  };
}

/**
 * The testkit's own description of what `POST /v1/responses` accepts (the `CreateResponse` body), as a JSON Schema
 * (2020-12) document: written by this project from the OpenAI API reference and the API's documented rules, not
 * copied from the OpenAPI document. Every request parameter the API knows is listed and no other is accepted
 * (`Unknown parameter`); `model` is required; the items and tools our runtime sends are described field by field
 * and closed (messages, `function_call`, `function_call_output`, `reasoning`, `tool_search_call` / `_output`,
 * `item_reference`; `function`, `namespace`, `tool_search`, `custom` tools with `defer_loading`); the API's
 * other item and tool kinds are accepted by their `type` tag. Returns a new object on each call.
 */
export function responsesRequestSchema(): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://ankole.invalid/testkit/responses-create-request.json',
    title: 'CreateResponse (the testkit description)',
    ...closedObject(
      {
        model: { type: 'string' },
        input: { anyOf: [{ type: 'string' }, { type: 'array', items: ref('InputItem') }] },
        instructions: nullable({ type: 'string' }),
        tools: { type: 'array', items: ref('Tool') },
        tool_choice: ref('ToolChoice'),
        parallel_tool_calls: nullable({ type: 'boolean' }),
        store: nullable({ type: 'boolean' }),
        stream: nullable({ type: 'boolean' }),
        stream_options: nullable(closedObject({ include_obfuscation: { type: 'boolean' } })),
        include: nullable({ type: 'array', items: { enum: INCLUDE_VALUES } }),
        previous_response_id: nullable({ type: 'string' }),
        conversation: nullable({ anyOf: [{ type: 'string' }, closedObject({ id: { type: 'string' } }, ['id'])] }),
        reasoning: nullable(ref('ReasoningOptions')),
        text: ref('TextOptions'),
        temperature: nullable({ type: 'number', minimum: 0, maximum: 2 }),
        top_p: nullable({ type: 'number', minimum: 0, maximum: 1 }),
        top_logprobs: nullable({ type: 'integer', minimum: 0, maximum: 20 }),
        max_output_tokens: nullable({ type: 'integer', minimum: 16 }),
        max_tool_calls: nullable({ type: 'integer' }),
        metadata: ref('Metadata'),
        user: { type: 'string' },
        safety_identifier: nullable({ type: 'string', maxLength: 64 }),
        prompt_cache_key: nullable({ type: 'string' }),
        prompt_cache_retention: nullable({ enum: ['in_memory', '24h'] }),
        prompt_cache_options: { type: 'object' },
        service_tier: nullable({ enum: ['auto', 'default', 'flex', 'scale', 'priority', 'fast', 'ultrafast'] }),
        truncation: nullable({ enum: ['auto', 'disabled'] }),
        background: nullable({ type: 'boolean' }),
        prompt: nullable({ type: 'object', required: ['id'], properties: { id: { type: 'string' }, version: nullable({ type: 'string' }) } }),
        moderation: nullable({ type: 'object', required: ['model'], properties: { model: { type: 'string' } } }),
        context_management: nullable({ type: 'array', minItems: 1, items: { type: 'object', required: ['type'] } }),
      },
      ['model'],
    ),
    $defs: { ...contentDefinitions(), ...itemDefinitions(), ...toolDefinitions(), ...parameterDefinitions() },
  };
}
