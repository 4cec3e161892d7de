import { describe, expect, it } from 'vitest';
import { closeTruncatedJson } from './close-truncated-json.js';

const value = (text: string): unknown => {
  const result = closeTruncatedJson(text);
  if (!result.ok) throw new Error(`not closed: ${result.message} at ${result.position}`);
  return result.value;
};

describe('closeTruncatedJson', () => {
  it('reads complete JSON as JSON.parse does, with no fixes', () => {
    for (const text of ['{"a":1,"b":[true,false,null],"c":{"d":"e\\u00e9\\n"},"n":-1.5e3}', '[]', '"x"', '{"__proto__":{"x":1}}']) {
      const result = closeTruncatedJson(text);
      expect(result).toEqual({ ok: true, value: JSON.parse(text), truncated: false, fixes: [] });
    }
    const proto = value('{"__proto__":{"x":1}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(['__proto__']);
  });

  it('keeps only what was complete when the input ends early', () => {
    expect(value('{"foo":"bar')).toEqual({});
    expect(value('{"a":"apple","b":"b')).toEqual({ a: 'apple' });
    expect(value('{"a":2.')).toEqual({});
    expect(value('{"key1": 123')).toEqual({});
    expect(value('{"key1": 123,')).toEqual({ key1: 123 });
    expect(value('{"foo":')).toEqual({});
    expect(value('{"k')).toEqual({});
    expect(value('{"a":"\\')).toEqual({});
    expect(value('{"a":"\\u00')).toEqual({});
    expect(value('{"a": tr')).toEqual({});
    expect(value('{"a": true')).toEqual({ a: true });
    expect(value('{"a":{"b":2}')).toEqual({ a: { b: 2 } });
    expect(value('{"employees":["John", "Anna", "Peter')).toEqual({ employees: ['John', 'Anna'] });
    expect(value('{"location": "}"')).toEqual({ location: '}' });
    const result = closeTruncatedJson('{"a":[1,{"b":"c');
    expect(result).toMatchObject({ ok: true, truncated: true, value: { a: [1, {}] } });
    expect(result.ok && result.fixes.join()).toContain('closed 3 open brackets');
  });

  it('reads a wrong closing bracket as the innermost one, and skips one stray "}" before more members', () => {
    expect(value('{"a":2]')).toEqual({ a: 2 });
    expect(value('{"a": 1, "b": [}')).toEqual({ a: 1, b: [] });
    expect(value('{"key1": ["value1", "value2"}, "key2": ["value3"]}')).toEqual({ key1: ['value1', 'value2'], key2: ['value3'] });
    expect(value('{"key1": "value1"}, "key2": "value2"}')).toEqual({ key1: 'value1', key2: 'value2' });
    expect(closeTruncatedJson('{"a": 1}, {"b": 2}').ok).toBe(false);
  });

  it('reads NaN / Infinity as null and Python literals, noting each fix', () => {
    const result = closeTruncatedJson('{"list": [1, NaN, -Infinity, Infinity, True, False, None, "str');
    expect(result).toMatchObject({ ok: true, truncated: true, value: { list: [1, null, null, null, true, false, null] } });
    expect(result.ok && result.fixes).toContain('NaN became null');
  });

  it('keeps raw control characters inside strings', () => {
    expect(value('{"key":"line1\nline2\u0000"}')).toEqual({ key: 'line1\nline2\u0000' });
  });

  it('fails with a position on anything else, so syntax repair can take over', () => {
    expect(closeTruncatedJson("{'a': 1}")).toMatchObject({ ok: false, position: 1 });
    expect(closeTruncatedJson('{a: 1}')).toMatchObject({ ok: false, position: 1 });
    expect(closeTruncatedJson('{"a": 1,}')).toMatchObject({ ok: false, position: 8 });
    expect(closeTruncatedJson('{"a": 01}')).toMatchObject({ ok: false });
    expect(closeTruncatedJson('{"a": "\\x"}')).toMatchObject({ ok: false, position: 7 });
    expect(closeTruncatedJson('{"a": 1} trailing')).toMatchObject({ ok: false, position: 9 });
    expect(closeTruncatedJson('')).toMatchObject({ ok: false });
    expect(closeTruncatedJson(']')).toMatchObject({ ok: false });
    expect(closeTruncatedJson('{"questions":["q":1]}')).toMatchObject({ ok: false, position: 17, refuse: true });
  });

  it('leaves an unterminated string that ends with all the closing brackets to syntax repair', () => {
    expect(closeTruncatedJson('{"a":"b}')).toMatchObject({ ok: false, message: 'a string is missing its closing quote' });
    expect(closeTruncatedJson('{"key": ["value]}')).toMatchObject({ ok: false });
    expect(value('{"a":"b}c')).toEqual({});
    // Pretty-printed closers, and a property name whose colon and value follow, are no cut-off either.
    expect(closeTruncatedJson('{\n  "a": {\n    "b": "c\n  }\n}')).toMatchObject({ ok: false, message: 'a string is missing its closing quote' });
    expect(closeTruncatedJson('{"a": 1, "tags: null\n}')).toMatchObject({ ok: false, message: 'a property name is missing its closing quote' });
    // Unless the string's own text opens the brackets that close it: then it was cut off.
    expect(value('{"code": "f() { return 1; }')).toEqual({});
  });

  it('is iterative: deep input does not overflow the stack', () => {
    const deep = `${'['.repeat(50_000)}1`;
    const result = closeTruncatedJson(deep);
    expect(result.ok).toBe(true);
  });
});
