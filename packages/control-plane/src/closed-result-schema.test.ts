import { describe, expect, it } from 'vitest';
import { checkClosedResultSchema } from './closed-result-schema.js';
import { createResultValidator } from './result-validator.js';

const validator = createResultValidator();
const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
  ...extra,
});

const accepted: Array<[string, unknown]> = [
  ['one string property', closed({ text: { type: 'string' } })],
  ['no properties', closed({})],
  ['an array of strings', closed({ facts: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 } })],
  ['a nullable (optional) value', closed({ note: { type: ['string', 'null'] } })],
  ['anyOf with null', closed({ who: { anyOf: [closed({ name: { type: 'string' } }), { type: 'null' }] } })],
  ['enum and const', closed({ level: { type: 'string', enum: ['low', 'high'] }, kind: { const: 'report' } })],
  ['numbers with bounds', closed({ score: { type: 'number', minimum: 0, maximum: 1 }, n: { type: 'integer', exclusiveMinimum: 0, multipleOf: 2 } })],
  ['string pattern and format', closed({ day: { type: 'string', format: 'date' }, code: { type: 'string', pattern: '^[A-Z]{3}$' } })],
  ['recursive $defs/$ref', closed({ tree: { $ref: '#/$defs/node' } }, { $defs: { node: closed({ name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }) } })],
  ['descriptions and titles', closed({ text: { type: 'string', description: 'the answer', title: 'Text' } }, { description: 'a result' })],
];

const refused: Array<[string, unknown, string, RegExp]> = [
  ['a non-object', 'string', '$', /must be a JSON Schema object/],
  ['an array root', [], '$', /must be a JSON Schema object/],
  ['a root that is not an object schema', { type: 'array', items: { type: 'string' } }, '$', /root must be an object schema/],
  ['a root anyOf', { anyOf: [closed({})] }, '$', /root must not be "anyOf"/],
  ['a root without additionalProperties', { type: 'object', required: ['a'], properties: { a: { type: 'string' } } }, '$', /additionalProperties/],
  ['an open nested object', closed({ meta: { type: 'object', properties: {}, additionalProperties: true } }), '$.properties.meta', /open record/],
  ['a nested object without additionalProperties', closed({ meta: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } }), '$.properties.meta', /additionalProperties/],
  ['a property not required', { type: 'object', additionalProperties: false, required: [], properties: { a: { type: 'string' } } }, '$', /every property must be listed in "required".*missing: a/],
  ['required naming an unknown property', closed({ a: { type: 'string' } }, { required: ['a', 'b'] }), '$', /names properties the schema does not define: b/],
  ['oneOf', closed({ v: { oneOf: [{ type: 'string' }, { type: 'number' }] } }), '$.properties.v', /"oneOf" is not supported/],
  ['allOf', closed({ v: { allOf: [{ type: 'string' }] } }), '$.properties.v', /"allOf" is not supported/],
  ['not', closed({ v: { type: 'string', not: { const: 'x' } } }), '$.properties.v', /"not" is not supported/],
  ['patternProperties', closed({ v: { type: 'object', additionalProperties: false, properties: {}, required: [], patternProperties: { '^x': { type: 'string' } } } }), '$.properties.v', /"patternProperties"/],
  ['a tuple', closed({ v: { type: 'array', prefixItems: [{ type: 'string' }] } }), '$.properties.v', /"prefixItems"/],
  ['minLength (not a strict-mode keyword)', closed({ v: { type: 'string', minLength: 3 } }), '$.properties.v', /"minLength" is not a strict-mode keyword/],
  ['default', closed({ v: { type: 'string', default: 'x' } }), '$.properties.v', /"default" is not a strict-mode keyword/],
  ['an unsupported format', closed({ v: { type: 'string', format: 'uri' } }), '$.properties.v', /format "uri" is not supported/],
  ['a schema with no type', closed({ v: {} }), '$.properties.v', /has no "type"/],
  ['an unknown type', closed({ v: { type: 'text' } }), '$.properties.v', /"type" "text" is not a JSON type/],
  ['a $ref outside the schema', closed({ v: { $ref: 'https://example.com/s.json' } }), '$.properties.v', /does not point into this schema/],
  ['an item in an array deep down', closed({ list: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } } }), '$.properties.list.items', /additionalProperties/],
  ['too many enum values', closed({ v: { type: 'string', enum: Array.from({ length: 1001 }, (_, i) => `v${i}`) } }), '$.properties.v', /1001 values; strict mode allows 1000/],
  ['nesting deeper than 10 levels', Array.from({ length: 11 }).reduce<Record<string, unknown>>((inner) => closed({ child: inner }), closed({})), '$', /nest deeper than 10 levels/],
  ['an invalid pattern', closed({ v: { type: 'string', pattern: '(' } }), '$.properties.v.pattern', /is refused: Invalid regular expression/],
  ['a pattern with a backreference', closed({ v: { type: 'string', pattern: '(a)\\1' } }), '$.properties.v.pattern', /backreference cannot be checked in linear time/],
];

describe('checkClosedResultSchema', () => {
  it.each(accepted)('accepts %s', (_name, schema) => {
    expect(checkClosedResultSchema(schema, validator)).toEqual([]);
  });

  it.each(refused)('refuses %s, naming the path', (_name, schema, path, message) => {
    const issues = checkClosedResultSchema(schema, validator);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.some((issue) => (issue.path === path || issue.path.startsWith(path)) && message.test(issue.message)), JSON.stringify(issues)).toBe(true);
  });

  it('refuses a schema larger than 64 KiB', () => {
    const huge = closed({ v: { type: 'string', description: 'x'.repeat(70_000) } });
    expect(checkClosedResultSchema(huge, validator)).toEqual([{ path: '$', message: expect.stringMatching(/at most 65536 are allowed/) }]);
  });
});

describe('createResultValidator', () => {
  it('lists each mismatch with its path and looks at own properties only', () => {
    const compiled = validator.compile(closed({ facts: { type: 'array', items: { type: 'string' } }, note: { type: ['string', 'null'] } }) as never);
    if (!compiled.ok) throw new Error(compiled.message);
    expect(compiled.check({ facts: ['a'], note: null })).toEqual([]);
    expect(compiled.check({ facts: ['a', 2], extra: 1 })).toEqual(
      expect.arrayContaining([
        { path: '$.note', message: 'is required but missing' },
        { path: '$.extra', message: 'is not allowed (the schema does not define this property)' },
        { path: '$.facts[1]', message: 'must be string' },
      ]),
    );
    const inherited = Object.create({ facts: [], note: null }) as object;
    expect(compiled.check(inherited).map((problem) => problem.path).sort()).toEqual(['$.facts', '$.note']);
  });
});
