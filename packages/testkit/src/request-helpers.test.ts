import { describe, expect, test } from 'vitest';
import { functionCallOutputs, lastUserText, type RecordedRequest } from './index.js';

function recorded(body: unknown): RecordedRequest {
  return { index: 0, method: 'POST', path: '/v1/responses', headers: {}, body, rawBody: JSON.stringify(body) };
}

describe('lastUserText', () => {
  test('reads a string input, the last user message, and joined input_text parts', () => {
    expect(lastUserText(recorded({ input: 'plain' }))).toBe('plain');
    expect(
      lastUserText(
        recorded({
          input: [
            { role: 'user', content: 'first' },
            { role: 'assistant', content: 'reply' },
            { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'sec' }, { type: 'input_image', image_url: 'x' }, { type: 'input_text', text: 'ond' }] },
            { type: 'function_call_output', call_id: 'c', output: 'not user text' },
          ],
        }),
      ),
    ).toBe('second');
  });

  test('is undefined without a user message or a body', () => {
    expect(lastUserText(recorded({ input: [{ role: 'assistant', content: 'x' }] }))).toBeUndefined();
    expect(lastUserText(recorded(undefined))).toBeUndefined();
  });
});

describe('functionCallOutputs', () => {
  test('returns only the function_call_output items, in order', () => {
    const request = recorded({
      input: [
        { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'a', output: 'one' },
        { type: 'function_call_output', call_id: 'b', output: [{ type: 'input_text', text: 'two' }] },
      ],
    });
    expect(functionCallOutputs(request).map((item) => item.call_id)).toEqual(['a', 'b']);
    expect(functionCallOutputs(recorded({ input: 'x' }))).toEqual([]);
  });
});
