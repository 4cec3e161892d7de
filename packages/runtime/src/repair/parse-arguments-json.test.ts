import { describe, expect, it } from 'vitest';
import { parseArgumentsJson } from './parse-arguments-json.js';

describe('parseArgumentsJson', () => {
  it('returns valid JSON objects as JSON.parse does, with no repairs', () => {
    expect(parseArgumentsJson('{"a":[1,{"b":null}]}')).toEqual({ ok: true, value: { a: [1, { b: null }] }, repairs: [], truncated: false });
    expect(parseArgumentsJson(' \t\n')).toEqual({ ok: true, value: {}, repairs: [], truncated: false });
  });

  it('stops at the first rung that gives an object, in ladder order', () => {
    const kinds = (text: string) => {
      const result = parseArgumentsJson(text);
      return result.ok ? result.repairs.map((repair) => repair.kind) : result.problem;
    };
    expect(kinds('```json\n{"a":1}\n```')).toEqual(['extracted']);
    expect(kinds('{"a":1,"b":"x')).toEqual(['closed_truncated']);
    expect(kinds('{"a":2]')).toEqual(['closed_unbalanced']);
    expect(kinds('{"a": NaN}')).toEqual(['syntax_repaired']);
    expect(kinds("{'a': 1}")).toEqual(['syntax_repaired']);
    expect(kinds("Here: {'a': 1} ok?")).toEqual(['extracted', 'syntax_repaired']);
    expect(kinds('Here: {"a": 1, "b": "cut')).toEqual(['extracted', 'closed_truncated']);
    expect(kinds('"{\\"a\\": 1}"')).toEqual(['unwrapped']);
    expect(kinds('"{\'a\': 1}"')).toEqual(['unwrapped', 'syntax_repaired']);
  });

  it('flags cut-off input', () => {
    expect(parseArgumentsJson('{"a":1,"b":"x')).toMatchObject({ ok: true, truncated: true, value: { a: 1 } });
    expect(parseArgumentsJson('{"a":1,"b":"x"}')).toMatchObject({ truncated: false });
  });

  it('refuses roots that are not objects, and text no rung can read', () => {
    expect(parseArgumentsJson('[1]')).toEqual({ ok: false, problem: 'the arguments must be a JSON object ({...}), received array of 1.' });
    expect(parseArgumentsJson('"just text"')).toMatchObject({ ok: false });
    expect(parseArgumentsJson('[a,b,c]')).toEqual({
      ok: false,
      problem: 'the arguments must be a JSON object ({...}), received array of 3 (after syntax repair).',
    });
    expect(parseArgumentsJson('{"questions":["q":1]}')).toEqual({
      ok: false,
      problem: 'not valid JSON: found ":" inside an array (a key where a value was expected) at position 17 (line 1, column 18).',
    });
    expect(parseArgumentsJson('{"a",')).toEqual({
      ok: false,
      problem: 'not valid JSON: expected ":" after the property name, found "," at position 4 (line 1, column 5).',
    });
  });
});
