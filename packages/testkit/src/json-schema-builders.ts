/** A JSON Schema (2020-12) node, as plain data. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** `{ $ref: '#/$defs/<name>' }`. */
export function ref(name: string): JsonSchema {
  return { $ref: `#/$defs/${name}` };
}

/** The schema or `null`. */
export function nullable(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: 'null' }] };
}

/** An object with exactly these properties (any other is an unknown parameter), `required` among them. */
export function closedObject(properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema {
  return { type: 'object', properties, required: [...required], additionalProperties: false };
}

/**
 * An object told apart by its `type` tag: `type` must be one of the described tags or of `otherTags` (shapes the
 * API has but this description does not detail: any object with that tag passes), and an object with a described
 * tag must match that tag's definition. `untagged` is the definition for an object without `type`, if one is allowed.
 */
export function taggedUnion(options: { described: Record<string, string>; otherTags?: readonly string[]; untagged?: JsonSchema }): JsonSchema {
  const tags = [...Object.keys(options.described), ...(options.otherTags ?? [])];
  const branches: JsonSchema[] = Object.entries(options.described).map(([tag, definition]) => ({
    if: { properties: { type: { const: tag } }, required: ['type'] },
    then: ref(definition),
  }));
  if (options.untagged !== undefined) branches.push({ if: { not: { required: ['type'] } }, then: options.untagged });
  return {
    type: 'object',
    ...(options.untagged === undefined ? { required: ['type'] } : {}),
    properties: { type: { enum: tags } },
    allOf: branches,
  };
}
