import { describe, expect, it } from 'vitest';
import { repairJsonSyntax } from './repair-json-syntax.js';

const repaired = (text: string): unknown => {
  const result = repairJsonSyntax(text);
  if (!result.ok) throw new Error(result.message);
  return JSON.parse(result.text);
};

describe('repairJsonSyntax', () => {
  it('repairs quotes, keys, commas, comments and Python literals with jsonrepair', () => {
    expect(repaired("{'a': 'foo', b: True, c: None, d: [1, 2,], /* note */ e: 'x'}")).toEqual({ a: 'foo', b: true, c: null, d: [1, 2], e: 'x' });
    expect(repaired('{"a":"b,"c":"d"}')).toEqual({ a: 'b', c: 'd' });
    expect(repaired('{\\"query\\": \\"foo\\"}')).toEqual({ query: 'foo' });
  });

  it('reports what jsonrepair cannot repair, without throwing', () => {
    expect(repairJsonSyntax('{"a",')).toMatchObject({ ok: false });
    expect(repairJsonSyntax('foo [')).toMatchObject({ ok: false });
  });
});

describe('repairJsonSyntax: CSV-style doubled quotes', () => {
  it('undoes doubled quotes only when the text starts like CSV-escaped JSON and nothing else worked', () => {
    expect(repaired(`{""answer"":[{""traits"":''Female aged 60+'',""n"":""5""}]}`)).toEqual({ answer: [{ traits: 'Female aged 60+', n: '5' }] });
    expect(repaired('{"a": "", "b": \'\'}')).toEqual({ a: '', b: '' });
  });
});
