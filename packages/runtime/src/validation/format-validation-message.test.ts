import { describe, expect, it } from 'vitest';
import { describeValue, formatIssuesMessage, formatJsonPath, formatUnreadableMessage, receivedPrefix } from './format-validation-message.js';

describe('format-validation-message', () => {
  it('writes JSON paths with dots, indexes and quoted odd keys', () => {
    expect(formatJsonPath([])).toBe('$');
    expect(formatJsonPath(['items', 2, 'name'])).toBe('$.items[2].name');
    expect(formatJsonPath(['a b', 'ok_1', '$x', '1st'])).toBe('$["a b"].ok_1.$x["1st"]');
  });

  it('describes received values briefly', () => {
    expect(describeValue(undefined)).toBe('nothing');
    expect(describeValue(null)).toBe('null');
    expect(describeValue([1, 2])).toBe('array of 2');
    expect(describeValue({ a: 1 })).toBe('object');
    expect(describeValue(false)).toBe('boolean false');
    expect(describeValue('x'.repeat(50))).toBe(`string "${'x'.repeat(40)}…"`);
  });

  it('quotes at most 200 characters of the arguments', () => {
    expect(receivedPrefix('  ')).toBe('Received: (empty)');
    expect(receivedPrefix('{"a":1}')).toBe('Received: {"a":1}');
    expect(receivedPrefix('y'.repeat(250))).toBe(`Received (first 200 of 250 characters): ${'y'.repeat(200)}…`);
  });

  it('lists issues with what was received, missing properties as such, and the note', () => {
    const message = formatIssuesMessage({
      toolName: 't',
      issues: [
        { path: ['a'], message: 'expected string', showReceived: true },
        { path: ['b'], message: 'expected number', showReceived: true },
        { path: ['c'], message: 'unknown property (not allowed by the schema)' },
      ],
      value: { a: 1, c: true },
      argumentsText: '{"a":1,"c":true}',
      note: 'A note.',
    });
    expect(message).toBe(
      [
        'Invalid arguments for tool "t": 3 problems.',
        '- $.a: expected string, received number 1',
        '- $.b: missing required property (expected number)',
        '- $.c: unknown property (not allowed by the schema)',
        'A note.',
        'Received: {"a":1,"c":true}',
        'Fix the arguments and call the tool again.',
      ].join('\n'),
    );
  });

  it('explains unreadable arguments', () => {
    expect(formatUnreadableMessage({ toolName: 't', problem: 'not valid JSON.', argumentsText: '{' })).toBe(
      'Invalid arguments for tool "t": not valid JSON.\nReceived: {\nSend the arguments as one JSON object matching the tool\'s parameters. Fix the arguments and call the tool again.',
    );
  });
});
