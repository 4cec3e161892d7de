import { describe, expect, it } from 'vitest';
import { closeTruncatedJson } from './close-truncated-json.js';
import { normalizeJsonSyntax } from './normalize-json-syntax.js';

/** The normalised text read by the closing rung (what the ladder does next when nothing else is wrong). */
const read = (text: string): unknown => {
  const closed = closeTruncatedJson(normalizeJsonSyntax(text).text);
  if (!closed.ok) throw new Error(`${closed.message} at ${closed.position} in ${normalizeJsonSyntax(text).text}`);
  return closed.value;
};

describe('normalizeJsonSyntax: literals, numbers, tuples', () => {
  it('turns Python and upper-case literals and NaN / Infinity in value position into JSON, never inside strings or as keys', () => {
    expect(read('{"a": TRUE, "b": False, "c": Null, "d": NONE, "e": [None, NULL], "f": NaN, "g": -Infinity}')).toEqual({
      a: true,
      b: false,
      c: null,
      d: null,
      e: [null, null],
      f: null,
      g: null,
    });
    expect(read('{"s": "TRUE None", "u": TRUE}')).toEqual({ s: 'TRUE None', u: true });
    expect(normalizeJsonSyntax("{'t': 'Null', 'u': TRUE}").text).toBe('{"t": "Null", "u": true}');
    expect(normalizeJsonSyntax('{TRUE: 1, Null: TRUE}').text).toBe('{TRUE: 1, Null: true}');
    expect(normalizeJsonSyntax('{"a": TRUEish, "b": Nullable}').text).toBe('{"a": TRUEish, "b": Nullable}');
    expect(normalizeJsonSyntax('{"a": NULL}').fixes).toEqual(['1 Python or upper-case literal (True, NULL, None, …) became JSON']);
  });

  it('removes digit separators from numbers in value position only', () => {
    expect(read('{"a": 82_461_110, "b": -1_000.5, "c": [1_0, 2_000], "d": "1_000"}')).toEqual({ a: 82461110, b: -1000.5, c: [10, 2000], d: '1_000' });
    expect(normalizeJsonSyntax('{"a": 1__0}').text).toBe('{"a": 1__0}');
  });

  it('reads tuples in value position as arrays; a call keeps its parentheses', () => {
    expect(read('{"a": (1, 2), "b": (), "c": (5,), "d": ((1, 2), (True, None)), "e": [(1, 2)]}')).toEqual({
      a: [1, 2],
      b: [],
      c: [5],
      d: [
        [1, 2],
        [true, null],
      ],
      e: [[1, 2]],
    });
    expect(read('{"one": (1), "s": ("x"), "t": ("x",)}')).toEqual({ one: 1, s: 'x', t: ['x'] });
    expect(normalizeJsonSyntax('{"d": ISODate("2024-01-01")}').text).toBe('{"d": ISODate("2024-01-01")}');
    expect(normalizeJsonSyntax('cb({"a": 1})').text).toBe('cb({"a": 1})');
  });
});

describe('normalizeJsonSyntax: comments, brackets, commas', () => {
  it('removes // /* */ and # comments next to brackets, keeping comment-like text in strings', () => {
    expect(read('// call\n{/* } */"a": [1, /* x */ 2] /* y */, # note\n "u": "http://x/*y*/"} // end')).toEqual({ a: [1, 2], u: 'http://x/*y*/' });
  });

  it('replaces a closing bracket of the wrong kind and drops closers left over after the root', () => {
    expect(read('{"a": [1, 2}, "b": {"c": 3], "d": [4)}')).toEqual({ a: [1, 2], b: { c: 3 }, d: [4] });
    expect(read('{"a": 1}}]')).toEqual({ a: 1 });
  });

  it('closes with a wrong closer what the text after it needs: a dropped } before ] when a property follows', () => {
    expect(read('{"array": [{"key": "value"], "key2": "value2"}')).toEqual({ array: [{ key: 'value' }], key2: 'value2' });
    expect(read('{"x": {"a": [1, 2}, "b": 3}, "c": 4}')).toEqual({ x: { a: [1, 2], b: 3 }, c: 4 });
    expect(read('{"rows": [[1, 2}, [3]]}')).toEqual({ rows: [[1, 2], [3]] });
  });

  it('removes doubled and trailing commas and puts back missing ones', () => {
    expect(read('{, "a": 1,, "b": [1, 2,], "c": {"d": 1,},}')).toEqual({ a: 1, b: [1, 2], c: { d: 1 } });
    expect(read('{"a": 1 "b": [1 2 3] "c": {"d": 1} "e": "x"\n"f": true}')).toEqual({ a: 1, b: [1, 2, 3], c: { d: 1 }, e: 'x', f: true });
    expect(read('{"a" 1}')).toEqual({ a: 1 });
  });
});

describe('normalizeJsonSyntax: quotes', () => {
  it('closes a property name missing its closing (or opening) quote', () => {
    expect(read('{"name: "Ana", "age": 3, "tags: ["x"], "n: 5}')).toEqual({ name: 'Ana', age: 3, tags: ['x'], n: 5 });
    expect(read('{"a": "x", limit": 10}')).toEqual({ a: 'x', limit: 10 });
  });

  it('undoes doubled opening and closing quotes, keeping empty strings', () => {
    expect(read('{""a": ""x", "b": "", "c": "y"", ""d"": ""z""}')).toEqual({ a: 'x', b: '', c: 'y', d: 'z' });
  });

  it('escapes quotes that cannot end the string, and ends it where a next member or bracket follows', () => {
    expect(read('{"c": "env.get("KEY", "dflt")", "p": "b.py"}')).toEqual({ c: 'env.get("KEY", "dflt")', p: 'b.py' });
    expect(read('{"t": "she said "ok", then left", "n": 1}')).toEqual({ t: 'she said "ok", then left', n: 1 });
    expect(read('{"l": ["say "hi"", "bye"], "q": "x = "y""}')).toEqual({ l: ['say "hi"', 'bye'], q: 'x = "y"' });
    expect(read('{"a":"b,"c":"d"}')).toEqual({ a: 'b', c: 'd' });
  });

  it('closes a string value that lost its closing quote right before the closers of everything open', () => {
    expect(read('{"a": "sic tamet, quick brown fox. }')).toEqual({ a: 'sic tamet, quick brown fox.' });
    expect(read('{"a": [{"b": "x, y}]}')).toEqual({ a: [{ b: 'x, y' }] });
    // The closers belong to the string when its own text opens them: it was cut off.
    expect(normalizeJsonSyntax('{"code": "f() { return 1; }').text).toBe('{"code": "f() { return 1; }');
  });

  it('quotes unquoted values with / or @ and values missing their opening quote; keeps URLs after a colon', () => {
    expect(read('{"tz": Europe/Paris, "r": 1/3, "d": 2024/01/02, "m": a@b.c}')).toEqual({ tz: 'Europe/Paris', r: '1/3', d: '2024/01/02', m: 'a@b.c' });
    expect(read('{"a": foo", "b": "bar"}')).toEqual({ a: 'foo', b: 'bar' });
    expect(normalizeJsonSyntax('{url:https://x.org/a}').text).toBe('{url:https://x.org/a}');
    expect(read('{"a": 2/*c*/}')).toEqual({ a: 2 });
  });

  it('ends a string before a property on the next line whose comma is missing', () => {
    expect(read('{\n  "first": "Ana"\n  "last": "Lima"\n}')).toEqual({ first: 'Ana', last: 'Lima' });
    expect(normalizeJsonSyntax('{\n  "first": "Ana"\n  last: "Lima"\n}').text).toBe('{\n  "first": "Ana"\n  ,last: "Lima"\n}');
  });

  it('makes single-quoted keys and values double-quoted (escaping inner double quotes), but not apostrophes in words', () => {
    expect(read(`{'a': 'say "hi" it\\'s', 'b': '{x', 'c': ['y']}`)).toEqual({ a: 'say "hi" it\'s', b: '{x', c: ['y'] });
    expect(normalizeJsonSyntax("{'a': don't}").text).toBe('{"a": don\'t}');
    expect(read("{'a': 1, 'b': 'cut off")).toEqual({ a: 1 });
  });

  it('leaves a cut-off string open for the closing rung', () => {
    expect(normalizeJsonSyntax('{"a": TRUE, "b": "unfinished, {text').text).toBe('{"a": true, "b": "unfinished, {text');
    expect(read('{"a": TRUE, "b": "unfinished, {text')).toEqual({ a: true });
  });
});

describe('normalizeJsonSyntax: bounds', () => {
  it('stays linear on adversarial input (each quote looks ahead a bounded window; finishes, no timing asserted)', () => {
    const size = 500_000;
    const inputs = [
      `{"a": "${'"/*'.repeat(size / 3)}`,
      `{"a": "${'" '.repeat(size / 2)}`,
      `{"a": "${`"${' '.repeat(5000)}`.repeat(size / 5000)}`,
      `{${'"k: '.repeat(size / 4)}`,
      `{"a": "${'x", "'.repeat(size / 5)}`,
      `${'('.repeat(size)}`,
      `${'}'.repeat(size)}`,
      `{"a": ${'1_'.repeat(size / 2)}`,
      `{"a": ${'// c\n'.repeat(size / 5)}1}`,
    ];
    for (const input of inputs) expect(typeof normalizeJsonSyntax(input).text).toBe('string');
  });
});
