import { describe, expect, it } from 'vitest';
import { extractJsonValue, stripOuterFences } from './extract-json-value.js';

describe('extractJsonValue', () => {
  it('takes one object out of a code fence', () => {
    expect(extractJsonValue('```json\n{"a":"b"}\n```')).toEqual({ kind: 'one', text: '{"a":"b"}', parsed: { a: 'b' }, from: 'fence', copies: 1 });
    expect(extractJsonValue('```{"a":"b"}```')).toMatchObject({ kind: 'one', parsed: { a: 'b' } });
    expect(extractJsonValue('{```json\n{"a":"b"}\n```}')).toMatchObject({ kind: 'one', parsed: { a: 'b' } });
    expect(extractJsonValue('Decision:\n\n  ```json\n  {\n "key": "value"\n  }\n  ```\n')).toMatchObject({ kind: 'one', parsed: { key: 'value' } });
  });

  it('takes one object out of prose, skipping brackets inside strings', () => {
    expect(extractJsonValue('Here is your JSON:\n{"text": "literal } and ]"}\nAdditional explanation.')).toMatchObject({
      kind: 'one',
      parsed: { text: 'literal } and ]' },
      from: 'prose',
    });
    expect(extractJsonValue('I\'ll call it: {"path": "README.md"} Let me read it.')).toMatchObject({ parsed: { path: 'README.md' } });
    expect(extractJsonValue('callback_123({"a": 1});')).toMatchObject({ parsed: { a: 1 } });
  });

  it('ignores an empty object next to the real one, but never guesses between two', () => {
    expect(extractJsonValue('{"a":2}{}')).toMatchObject({ kind: 'one', parsed: { a: 2 } });
    expect(extractJsonValue('{"q": 1}{"q": 2}')).toEqual({ kind: 'several', count: 2 });
    expect(extractJsonValue('```json\n{"a":1}\n```\n```json\n{"b":2}\n```')).toEqual({ kind: 'several', count: 2 });
  });

  it('takes the same object sent twice back to back once, and still never guesses between two different ones', () => {
    expect(extractJsonValue('{"a": 1}\n{"a": 1}')).toMatchObject({ kind: 'one', parsed: { a: 1 }, copies: 2 });
    expect(extractJsonValue('{"a": {"b": [1]}}{"a":{"b":[1]}}{"a": {"b": [1]}}')).toMatchObject({ kind: 'one', parsed: { a: { b: [1] } }, copies: 3 });
    expect(extractJsonValue('{"a": 1}, {"a": 1}')).toMatchObject({ kind: 'one', copies: 2 });
    expect(extractJsonValue("{'a': 1}{'a': 1}")).toMatchObject({ kind: 'one', text: "{'a': 1}", parsed: undefined, copies: 2 });
    expect(extractJsonValue('{"a": 1}\n{"a": 2}')).toEqual({ kind: 'several', count: 2 });
    expect(extractJsonValue('{"a": 1}, {"b": 1}')).toEqual({ kind: 'several', count: 2 });
  });

  it('skips comments and single-quoted strings inside a span, and prefers a parsed object to a fence cut inside a string', () => {
    expect(extractJsonValue('note: {/* } */"a": 1} done')).toMatchObject({ kind: 'one', text: '{/* } */"a": 1}', parsed: undefined });
    expect(extractJsonValue("so {'t': 'a } b'} ok")).toMatchObject({ kind: 'one', text: "{'t': 'a } b'}" });
    const fenced = '```json\n{"readme": "# T\\n```sh\\nnpm i\\n```\\n"}\n```';
    expect(extractJsonValue(fenced)).toMatchObject({ kind: 'one', parsed: { readme: '# T\n```sh\nnpm i\n```\n' }, from: 'prose' });
  });

  it('takes no span whose brackets were miscounted because quotes are off (more JSON follows it)', () => {
    expect(extractJsonValue('{"query: 1, "name": {"c": "end}", "t": 1}}')).toEqual({ kind: 'none' });
  });

  it('returns an unparsable or cut-off span as text for the later rungs', () => {
    expect(extractJsonValue("Sure: {'a': 1} done")).toEqual({ kind: 'one', text: "{'a': 1}", parsed: undefined, from: 'prose', copies: 1 });
    expect(extractJsonValue('Here is your JSON: {"key": "value')).toEqual({ kind: 'one', text: '{"key": "value', parsed: undefined, from: 'prose', copies: 1 });
  });

  it('takes nothing when the object is the whole text, or when a comma continues it', () => {
    expect(extractJsonValue('{"a": 1,}')).toEqual({ kind: 'none' });
    expect(extractJsonValue('  {a: 1}  ')).toEqual({ kind: 'none' });
    expect(extractJsonValue('{"key1": "value1"}, "key2": "value2"}')).toEqual({ kind: 'none' });
    expect(extractJsonValue('no object here [1, 2]')).toEqual({ kind: 'none' });
    expect(extractJsonValue('[{"path": "a"}] and more')).toEqual({ kind: 'none' });
  });
});

describe('stripOuterFences', () => {
  it('removes a fence left at the very start or end, and nothing else', () => {
    expect(stripOuterFences('{"a": "b}```')).toBe('{"a": "b}');
    expect(stripOuterFences('```json\n{"a": 1')).toBe('{"a": 1');
    expect(stripOuterFences('{"a": 1}\n```json')).toBe('{"a": 1}');
    expect(stripOuterFences('{"a": "```"}')).toBeUndefined();
    expect(stripOuterFences('{"a": 1}')).toBeUndefined();
  });
});
