import { describe, expect, it } from 'vitest';
import { createResultValidator } from './result-validator.js';
import type { JsonObject } from '@core/control-plane-client';

describe('createResultValidator', () => {
  it('validates a result property named "__proto__" like any other (Ajv alone skips it), keeping the data', () => {
    const schema = JSON.parse(
      '{"type": "object", "additionalProperties": false, "required": ["__proto__", "items"], "properties": {"__proto__": {"type": "number"}, "items": {"type": "array", "items": {"type": "object", "additionalProperties": false, "required": ["__proto__"], "properties": {"__proto__": {"type": "string"}}}}}}',
    ) as JsonObject;
    const compiled = createResultValidator().compile(schema);
    if (!compiled.ok) throw new Error(compiled.message);
    expect(compiled.check(JSON.parse('{"__proto__": 3, "items": [{"__proto__": "a"}]}'))).toEqual([]);
    const problems = compiled.check(JSON.parse('{"__proto__": "foo", "items": [{"__proto__": 1}]}'));
    expect(problems).toHaveLength(2);
    expect(problems).toEqual(
      expect.arrayContaining([
        { path: '$.__proto__', message: 'must be number' },
        { path: '$.items[0].__proto__', message: 'must be string' },
      ]),
    );
    expect(compiled.check(JSON.parse('{"items": []}'))).toEqual([{ path: '$.__proto__', message: 'is required but missing' }]);
  });
});
