import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { postAndReadSse } from './__fixtures__/read-sse.js';
import { readStreamCapture, reply, startTestModelServer, STREAM_CAPTURES, streamCapture, TestkitError } from './index.js';

describe('stream captures', () => {
  it.each(STREAM_CAPTURES)('%s: a stream from response.created to response.completed with numbered events', (name) => {
    const events = streamCapture(name);
    expect(events[0]?.type).toBe('response.created');
    expect(events.at(-1)?.type).toBe('response.completed');
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_event, index) => index));
  });

  it('serves a capture as it is, renumbering from 0, and its Response as JSON without stream', async () => {
    const server = await startTestModelServer({ script: [reply.capture(streamCapture('custom-tool-call')), reply.capture(streamCapture('custom-tool-call'))] });
    try {
      const events = await postAndReadSse(server.baseURL, { model: 'm', input: 'x', stream: true });
      expect(events.map((event) => event.data)).toEqual(streamCapture('custom-tool-call'));
      expect(events.map((event) => event.event)).toContain('response.custom_tool_call_input.delta');
      const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
      const response = await client.responses.create({ model: 'm', input: 'x' });
      expect(response.output).toMatchObject([{ type: 'custom_tool_call', call_id: 'call_cap_custom_01', name: 'write_sql' }]);
    } finally {
      await server.close();
    }
  });

  it('refuses a capture file whose line is not a stream event', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'capture-')), 'bad.jsonl');
    writeFileSync(path, '{"type":"response.created"}\n[1,2]\n');
    expect(() => readStreamCapture(path)).toThrow(TestkitError);
    expect(() => readStreamCapture(path)).toThrow(/Line 2 .* is not a stream event/);
  });
});

describe('items looked up by id', () => {
  const notPersisted = "Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.";

  it('answers 404 for reasoning without encrypted_content from a store: false response, as the API does', async () => {
    const server = await startTestModelServer({ script: [reply.functionCalls([{ name: 'f', arguments: {}, callId: 'c1' }], { reasoning: 'Plan.' }), reply.text('ok')] });
    try {
      const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
      const first = await client.responses.create({ model: 'm', input: 'x', store: false });
      const reasoning = first.output[0] as OpenAI.Responses.ResponseReasoningItem;
      expect(reasoning.encrypted_content).toBeUndefined();
      const input = ['x', ...first.output, { type: 'function_call_output', call_id: 'c1', output: 'done' }].map((item) => (typeof item === 'string' ? { role: 'user', content: item } : item));
      const error = await client.responses.create({ model: 'm', input: input as OpenAI.Responses.ResponseInput, store: false }).catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ status: 404, error: { message: `Item with id '${reasoning.id}' not found. ${notPersisted}`, type: 'invalid_request_error', param: 'input', code: null } });
      // Without the reasoning item the same request is fine.
      const accepted = await client.responses.create({ model: 'm', input: input.filter((item) => (item as { type?: string }).type !== 'reasoning') as OpenAI.Responses.ResponseInput, store: false });
      expect(accepted.output_text).toBe('ok');
    } finally {
      await server.close();
    }
  });

  it('finds items of a stored response, and refuses an unknown item reference', async () => {
    const server = await startTestModelServer({ script: [reply.functionCalls([{ name: 'f', arguments: {}, callId: 'c1' }], { reasoning: 'Plan.' }), reply.text('ok')] });
    try {
      const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
      const first = await client.responses.create({ model: 'm', input: 'x' });
      const reasoning = first.output[0] as OpenAI.Responses.ResponseReasoningItem;
      const accepted = await client.responses.create({
        model: 'm',
        input: [{ type: 'item_reference', id: reasoning.id }, first.output[1] as OpenAI.Responses.ResponseFunctionToolCall, { type: 'function_call_output', call_id: 'c1', output: 'done' }],
      });
      expect(accepted.output_text).toBe('ok');
      const error = await client.responses.create({ model: 'm', input: [{ type: 'item_reference', id: 'msg_unknown' }] }).catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ status: 404, error: { message: "Item with id 'msg_unknown' not found." } });
      expect(server.remaining).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('refuses a custom tool call without its custom_tool_call_output', async () => {
    const server = await startTestModelServer({ script: [reply.text('never')] });
    try {
      const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
      const input = [{ type: 'custom_tool_call', call_id: 'ct1', name: 'write_sql', input: 'SELECT 1' }] as OpenAI.Responses.ResponseInput;
      const error = await client.responses.create({ model: 'm', input }).catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ status: 400, error: { message: 'No tool output found for custom tool call ct1.', param: 'input' } });
      const answered = await client.responses.create({ model: 'm', input: [...input, { type: 'custom_tool_call_output', call_id: 'ct1', output: 'Error: no such tool' }] });
      expect(answered.output_text).toBe('never');
    } finally {
      await server.close();
    }
  });
});
