/** Request bodies for the request checks: what the runtime sends, and mistakes the API refuses. */

const readFile = {
  type: 'function',
  name: 'read_file',
  description: 'Read a file.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
  strict: true,
};

/** A body shaped like what the runtime's gateway sends on a later turn. */
export const realisticBody = {
  model: 'test-model',
  instructions: 'You are a worker.',
  store: false,
  stream: true,
  include: ['reasoning.encrypted_content'],
  parallel_tool_calls: true,
  tools: [
    readFile,
    {
      type: 'namespace',
      name: 'calendar',
      description: 'Calendar tools.',
      tools: [{ type: 'function', name: 'list_events', description: 'List events.', parameters: { type: 'object', properties: {} }, strict: false, defer_loading: true }],
    },
    { type: 'tool_search' },
  ],
  input: [
    { role: 'user', content: 'Read a.txt and check my calendar.' },
    { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Plan.' }], encrypted_content: 'opaque' },
    { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'On it.', annotations: [], logprobs: [] }] },
    { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}', status: 'completed' },
    { type: 'function_call', id: 'fc_2', call_id: 'call_2', namespace: 'calendar', name: 'list_events', arguments: '{}', status: 'completed' },
    { type: 'function_call_output', call_id: 'call_1', output: 'hello' },
    { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'no events' }] },
    { type: 'tool_search_call', call_id: 'call_3', execution: 'client', arguments: { query: 'calendar' }, status: 'completed' },
    {
      type: 'tool_search_output',
      call_id: 'call_3',
      execution: 'client',
      tools: [{ type: 'function', name: 'list_events', description: 'List events.', parameters: { type: 'object', properties: {} }, strict: false }],
    },
  ],
};

/** Bodies the API accepts (both descriptions must accept each). */
export const goodBodies: Array<[string, unknown]> = [
  ['the runtime’s later turn', realisticBody],
  ['a string input', { model: 'm', input: 'hi' }],
  ['no input at all', { model: 'm' }],
  ['sampling and reasoning options', { model: 'm', input: 'x', temperature: 0.2, top_p: 1, reasoning: { effort: 'low', summary: 'auto' }, prompt_cache_key: 'k', max_output_tokens: 64 }],
  ['nulls where the API allows them', { model: 'm', input: 'x', instructions: null, temperature: null, previous_response_id: null, reasoning: null, store: null }],
  ['a typed developer message', { model: 'm', input: [{ type: 'message', role: 'developer', content: 'Be brief.' }] }],
  ['an image in a tool output', { model: 'm', input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'low' }] }] }],
  ['tool_choice forcing one function', { model: 'm', input: 'x', tools: [readFile], tool_choice: { type: 'function', name: 'read_file' } }],
  ['a json_schema text format', { model: 'm', input: 'x', text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true }, verbosity: 'low' } }],
  ['a built-in tool', { model: 'm', input: 'x', tools: [{ type: 'web_search' }] }],
  ['an item reference', { model: 'm', input: [{ type: 'item_reference', id: 'msg_1' }] }],
];

/** Bodies the API refuses, with the `param` and `code` of its 400 (both descriptions must refuse each). */
export const badBodies: Array<[string, unknown, { param: string; code: string }]> = [
  ['a misspelt top-level parameter', { model: 'm', input: 'x', temprature: 0.2 }, { param: 'temprature', code: 'unknown_parameter' }],
  ['a temperature that is not a number', { model: 'm', input: 'x', temperature: 'hot' }, { param: 'temperature', code: 'invalid_type' }],
  ['a temperature above 2', { model: 'm', input: 'x', temperature: 3 }, { param: 'temperature', code: 'invalid_value' }],
  ['input that is a number', { model: 'm', input: 42 }, { param: 'input', code: 'invalid_type' }],
  ['message content that is a number', { model: 'm', input: [{ role: 'user', content: 42 }] }, { param: 'input[0].content', code: 'invalid_type' }],
  ['a message role the API does not have', { model: 'm', input: [{ role: 'tool', content: 'x' }] }, { param: 'input[0].role', code: 'invalid_value' }],
  [
    'a function_call_output without output',
    { model: 'm', input: [{ type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'c1' }] },
    { param: 'input[1].output', code: 'missing_required_parameter' },
  ],
  ['a function_call without arguments', { model: 'm', input: [{ type: 'function_call', call_id: 'c1', name: 'f' }] }, { param: 'input[0].arguments', code: 'missing_required_parameter' }],
  ['function_call arguments as an object', { model: 'm', input: [{ type: 'function_call', call_id: 'c1', name: 'f', arguments: {} }] }, { param: 'input[0].arguments', code: 'invalid_type' }],
  ['a reasoning item without summary', { model: 'm', input: [{ type: 'reasoning', id: 'rs_1' }] }, { param: 'input[0].summary', code: 'missing_required_parameter' }],
  ['an unknown item type', { model: 'm', input: [{ type: 'function_result', call_id: 'c' }] }, { param: 'input[0].type', code: 'invalid_value' }],
  ['a misspelt tool type', { model: 'm', input: 'x', tools: [{ type: 'functio', name: 'f' }] }, { param: 'tools[0].type', code: 'invalid_value' }],
  ['a function tool without a name', { model: 'm', input: 'x', tools: [{ type: 'function', parameters: {}, strict: true }] }, { param: 'tools[0].name', code: 'missing_required_parameter' }],
  ['a namespace without tools', { model: 'm', input: 'x', tools: [{ type: 'namespace', name: 'n', description: 'N.' }] }, { param: 'tools[0].tools', code: 'missing_required_parameter' }],
  ['an include value the API does not have', { model: 'm', input: 'x', include: ['reasoning.summary'] }, { param: 'include[0]', code: 'invalid_value' }],
  ['a tool_choice mode the API does not have', { model: 'm', input: 'x', tool_choice: 'always' }, { param: 'tool_choice', code: 'invalid_value' }],
  [
    'a Chat Completions function tool',
    { model: 'm', input: 'x', tools: [{ type: 'function', function: { name: 'read_file', parameters: {} } }] },
    { param: 'tools[0].name', code: 'missing_required_parameter' },
  ],
  ['max_output_tokens below 16', { model: 'm', input: 'x', max_output_tokens: 4 }, { param: 'max_output_tokens', code: 'invalid_value' }],
];

/**
 * Mistakes the API refuses that the OpenAPI document does not describe (it leaves items and tools open, and
 * states some rules only in prose): the testkit description refuses them, the document's schema lets them by.
 */
export const refusedBeyondTheDocument: Array<[string, unknown, { param: string; code: string }]> = [
  ['no model', { input: 'x' }, { param: 'model', code: 'missing_required_parameter' }],
  ['an unknown field in a message', { model: 'm', input: [{ role: 'user', content: 'hi', name: 'bob' }] }, { param: 'input[0].name', code: 'unknown_parameter' }],
  ['an unknown field in a function tool', { model: 'm', input: 'x', tools: [{ ...readFile, required: ['path'] }] }, { param: 'tools[0].required', code: 'unknown_parameter' }],
  ['a function name with a space', { model: 'm', input: 'x', tools: [{ ...readFile, name: 'read file' }] }, { param: 'tools[0].name', code: 'invalid_value' }],
  ['input_text in an assistant message', { model: 'm', input: [{ role: 'assistant', content: [{ type: 'input_text', text: 'x' }] }] }, { param: 'input[0].content[0].type', code: 'invalid_value' }],
  ['metadata with 17 keys', { model: 'm', input: 'x', metadata: Object.fromEntries(Array.from({ length: 17 }, (_, index) => [`k${index}`, 'v'])) }, { param: 'metadata', code: 'invalid_value' }],
];
