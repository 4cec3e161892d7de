import { beforeAll, describe, expect, test } from 'vitest';
import { postAndReadSse } from './__fixtures__/read-sse.js';
import {
  createRequestValidator,
  officialOpenapiDocument,
  reply,
  startTestModelServer,
  STREAM_CAPTURES,
  streamCapture,
  type RequestValidator,
  type StepReply,
} from './index.js';

// What the server emits is checked against the official OpenAPI document, when it is beside the checkout.
const official = officialOpenapiDocument();
if (!official.present) console.warn(`schema-conformance.test.ts: the conformance of emitted Responses and stream events ${official.skipNote}`);
let responseSchema: RequestValidator;
let eventSchema: RequestValidator;

beforeAll(() => {
  if (!official.present) return;
  responseSchema = createRequestValidator(official.path, { schemaName: 'Response' });
  eventSchema = createRequestValidator(official.path, { schemaName: 'ResponseStreamEvent' });
});

const steps: Array<[string, StepReply]> = [
  ['text', reply.text('Hello, world. This is a longer text.')],
  ['function calls with reasoning and text', reply.functionCalls([{ name: 'a', namespace: 'ns', arguments: { x: 1 } }, { name: 'b', arguments: '{' }], { text: 'Calling.', reasoning: 'Because.' })],
  ['tool search call', reply.toolSearchCall({ arguments: { query: 'calendar' } })],
  ['incomplete', reply.incomplete(reply.text('cut'))],
  ['failed', reply.failed('boom')],
  ['error event', reply.errorEvent('exploded')],
  ['custom tool call', reply.items([{ type: 'custom_tool_call', name: 'write_sql', input: 'SELECT 1' }])],
  ...STREAM_CAPTURES.map((name): [string, StepReply] => [`capture ${name}`, reply.capture(streamCapture(name))]),
];

const requestBody = {
  model: 'test-model',
  input: [{ role: 'user', content: 'hi' }],
  instructions: 'Be brief.',
  tools: [{ type: 'function', name: 'a', description: 'A tool.', parameters: { type: 'object', properties: {} }, strict: false }],
  store: false,
  include: ['reasoning.encrypted_content'],
};

describe.skipIf(!official.present)(`emitted payloads conform to the OpenAPI document${official.present ? '' : ` (${official.skipNote})`}`, () => {
  test.each(steps.filter(([, step]) => step.kind !== 'error-event'))('JSON Response: %s', async (_name, step) => {
    const server = await startTestModelServer({ script: [step] });
    try {
      const response = await fetch(`${server.baseURL}/responses`, { method: 'POST', body: JSON.stringify(requestBody) });
      expect(response.status).toBe(200);
      expect(responseSchema.validate(await response.json())).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  test.each(steps)('stream events: %s', async (_name, step) => {
    const server = await startTestModelServer({ script: [step] });
    try {
      const events = await postAndReadSse(server.baseURL, { ...requestBody, stream: true });
      expect(events.length).toBeGreaterThan(2);
      for (const event of events) {
        expect({ type: event.data.type, problem: eventSchema.validate(event.data) }).toEqual({ type: event.data.type, problem: undefined });
      }
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(!official.present)(`the conformance check can fail${official.present ? '' : ` (${official.skipNote})`}`, () => {
  test('a Response without id and an event without sequence_number are refused', () => {
    expect(responseSchema.validate({ object: 'response', output: [] })?.error.message).toMatch(/Missing required parameter/);
    expect(eventSchema.validate({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'x', logprobs: [] })).toBeDefined();
  });
});
