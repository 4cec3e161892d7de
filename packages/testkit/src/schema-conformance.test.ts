import { beforeAll, describe, expect, test } from 'vitest';
import { openapiPath } from './__fixtures__/openapi-path.js';
import { postAndReadSse } from './__fixtures__/read-sse.js';
import { createRequestValidator, reply, startTestModelServer, type RequestValidator, type StepReply } from './index.js';

// What the server emits is checked against the same OpenAPI document the requests are checked against.
let responseSchema: RequestValidator;
let eventSchema: RequestValidator;

beforeAll(() => {
  responseSchema = createRequestValidator(openapiPath, { schemaName: 'Response' });
  eventSchema = createRequestValidator(openapiPath, { schemaName: 'ResponseStreamEvent' });
});

const steps: Array<[string, StepReply]> = [
  ['text', reply.text('Hello, world. This is a longer text.')],
  ['function calls with reasoning and text', reply.functionCalls([{ name: 'a', namespace: 'ns', arguments: { x: 1 } }, { name: 'b', arguments: '{' }], { text: 'Calling.', reasoning: 'Because.' })],
  ['tool search call', reply.toolSearchCall({ arguments: { query: 'calendar' } })],
  ['incomplete', reply.incomplete(reply.text('cut'))],
  ['failed', reply.failed('boom')],
  ['error event', reply.errorEvent('exploded')],
];

const requestBody = {
  model: 'test-model',
  input: [{ role: 'user', content: 'hi' }],
  instructions: 'Be brief.',
  tools: [{ type: 'function', name: 'a', description: 'A tool.', parameters: { type: 'object', properties: {} }, strict: false }],
  store: false,
  include: ['reasoning.encrypted_content'],
};

describe('emitted payloads conform to the OpenAPI document', () => {
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

describe('the conformance check can fail', () => {
  test('a Response without id and an event without sequence_number are refused', () => {
    expect(responseSchema.validate({ object: 'response', output: [] })?.error.message).toMatch(/Missing required parameter/);
    expect(eventSchema.validate({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'x', logprobs: [] })).toBeDefined();
  });
});
