import {
  createRequestValidator,
  createResponsesRequestValidator,
  officialOpenapiDocument,
  reply,
  startTestModelServer,
  type RequestValidator,
} from '@core/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collectToolSchemas, DEFAULT_TOOL_SEARCH_DESCRIPTION, toFunctionToolParam, toolSearchToolParam } from './collect-tool-schemas.js';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import { ToolSetError } from '../errors.js';
import type { JSONObject } from '../json.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';

const official = officialOpenapiDocument();
if (!official.present) console.warn(`collect-tool-schemas.test.ts: the conformance to the official OpenAPI document ${official.skipNote}`);

interface ToolOptions {
  namespace?: string;
  namespaceDescription?: string;
  deferLoading?: boolean;
  strict?: boolean;
}

function tool(name: string, options: ToolOptions = {}): AnyWorkerAgentTool {
  return defineWorkerTool({
    name,
    description: `The ${name} tool.`,
    schema: z.object({ query: z.string(), limit: z.number().optional() }),
    describeActivity: () => name,
    execute: () => ({ content: name }),
    ...options,
  });
}

function toolSetError(run: () => unknown): ToolSetError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolSetError);
    return error as ToolSetError;
  }
  throw new Error('expected a ToolSetError');
}

const names = (entries: ReturnType<typeof collectToolSchemas>): string[] =>
  entries.map((entry) => ('name' in entry ? `${entry.type}:${entry.name}` : entry.type));

/** The testkit's own description of the request: always there. */
const described = createResponsesRequestValidator();
let officialValidator: RequestValidator | undefined;

/** The official OpenAPI document's CreateResponse (compiled once: it takes about a second); only when present. */
function officialValidate(body: unknown) {
  officialValidator ??= createRequestValidator(official.path);
  return officialValidator.validate(body);
}

/** Every kind of entry `collectToolSchemas` makes: strict and not, namespaced, deferred, a JSON Schema tool. */
function everyKindOfTool() {
  const jsonSchema: JSONObject = { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'], additionalProperties: false };
  return collectToolSchemas([
    tool('todo', { strict: true }),
    tool('create_issue', { namespace: 'github', namespaceDescription: 'GitHub.', deferLoading: true, strict: true }),
    tool('list_issues', { namespace: 'github' }),
    defineWorkerTool({ name: 'get', description: 'd', jsonSchema, strict: true, describeActivity: () => 'x', execute: () => ({ content: '' }) }),
    tool('archive', { deferLoading: true }),
  ]);
}

/** The tools of a namespace, sent without the namespace's description. */
function namespaceWithoutDescription() {
  const tools = collectToolSchemas([tool('a', { namespace: 'n' })]) as unknown as Record<string, unknown>[];
  return tools.map(({ description: _dropped, ...rest }) => rest);
}

describe('collectToolSchemas', () => {
  it('sends function tools as { type, name, description, parameters, strict }', () => {
    const strictTool = tool('read_file', { strict: true });
    expect(collectToolSchemas([tool('search'), strictTool])).toStrictEqual([
      {
        type: 'function',
        name: 'search',
        description: 'The search tool.',
        parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'number' } }, required: ['query'] },
        strict: false,
      },
      {
        type: 'function',
        name: 'read_file',
        description: 'The read_file tool.',
        parameters: {
          type: 'object',
          properties: { query: { type: 'string' }, limit: { type: ['number', 'null'] } },
          required: ['query', 'limit'],
          additionalProperties: false,
        },
        strict: true,
      },
    ]);
  });

  it('sends a jsonSchema tool its schema unchanged (deep-equal, same key order) with its strict flag', () => {
    const jsonSchema: JSONObject = { required: ['q'], type: 'object', properties: { q: { maxLength: 10, type: 'string' } } };
    const adapterTool = defineWorkerTool({ name: 'mcp_search', description: 'd', jsonSchema, describeActivity: () => 'x', execute: () => ({ content: '' }) });
    const [entry] = collectToolSchemas([adapterTool]);
    expect(entry).toMatchObject({ type: 'function', name: 'mcp_search', strict: false });
    expect(JSON.stringify((entry as { parameters: unknown }).parameters)).toBe(JSON.stringify(jsonSchema));
    expect((entry as { parameters: unknown }).parameters).toStrictEqual(jsonSchema);
  });

  it('groups a namespace into one entry at the place of its first member, keeping member order', () => {
    const tools = [
      tool('todo'),
      tool('create_issue', { namespace: 'github', namespaceDescription: 'GitHub issues and pull requests.' }),
      tool('shell'),
      tool('send', { namespace: 'mail' }),
      tool('list_issues', { namespace: 'github', namespaceDescription: 'ignored: the first description wins' }),
    ];
    const collected = collectToolSchemas(tools);
    expect(names(collected)).toStrictEqual(['function:todo', 'namespace:github', 'function:shell', 'namespace:mail']);
    expect(collected[1]).toMatchObject({
      type: 'namespace',
      name: 'github',
      description: 'GitHub issues and pull requests.',
      tools: [
        { type: 'function', name: 'create_issue' },
        { type: 'function', name: 'list_issues' },
      ],
    });
    expect(collected[3]).toMatchObject({ description: 'Tools of the "mail" namespace: send.' });
  });

  it('takes the namespace description from the first member that has one', () => {
    const collected = collectToolSchemas([tool('a', { namespace: 'crm' }), tool('b', { namespace: 'crm', namespaceDescription: 'Customers.' })]);
    expect(collected[0]).toMatchObject({ description: 'Customers.' });
  });

  it('marks deferred tools with defer_loading and appends one client tool_search tool', () => {
    const collected = collectToolSchemas([
      tool('todo'),
      tool('lookup', { deferLoading: true }),
      tool('create_issue', { namespace: 'github', namespaceDescription: 'GitHub.', deferLoading: true }),
      tool('archive', { deferLoading: true }),
    ]);
    expect(names(collected)).toStrictEqual(['function:todo', 'function:lookup', 'namespace:github', 'function:archive', 'tool_search']);
    expect(collected[0]).not.toHaveProperty('defer_loading');
    expect(collected[1]).toMatchObject({ defer_loading: true });
    expect(collected[2]).toMatchObject({ tools: [{ name: 'create_issue', defer_loading: true }] });
    expect(collected[4]).toStrictEqual({
      type: 'tool_search',
      execution: 'client',
      description: DEFAULT_TOOL_SEARCH_DESCRIPTION,
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: expect.any(String) } },
        required: ['query'],
        additionalProperties: false,
      },
    });
  });

  it('takes the tool_search description from the options, and can leave tool_search out', () => {
    const tools = [tool('lookup', { deferLoading: true })];
    expect(collectToolSchemas(tools, { toolSearchDescription: 'Find tools.' }).at(-1)).toMatchObject({ type: 'tool_search', description: 'Find tools.' });
    expect(names(collectToolSchemas(tools, { includeToolSearch: false }))).toStrictEqual(['function:lookup']);
  });

  it('adds no tool_search when nothing is deferred', () => {
    expect(names(collectToolSchemas([tool('a'), tool('b', { namespace: 'n' })]))).toStrictEqual(['function:a', 'namespace:n']);
  });

  it('is deterministic: the same tools give the same value', () => {
    const tools = [tool('a'), tool('b', { namespace: 'n', deferLoading: true }), tool('c')];
    expect(JSON.stringify(collectToolSchemas(tools))).toBe(JSON.stringify(collectToolSchemas(tools)));
  });

  it('reuses the function entries of the same tool objects on a later turn', () => {
    const tools = [tool('a'), tool('b', { namespace: 'n' })];
    const first = collectToolSchemas(tools);
    const second = collectToolSchemas(tools);
    expect(second[0]).toBe(first[0]);
    expect((second[1] as { tools: unknown[] }).tools[0]).toBe((first[1] as { tools: unknown[] }).tools[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(Object.isFrozen(first[0])).toBe(true);
  });

  it('reuses the value of the same tools array only while nothing it was made of changed', () => {
    const tools = [tool('a'), tool('b', { namespace: 'n' }), tool('c', { deferLoading: true })];
    const first = collectToolSchemas(tools);
    // The caller owns what it gets: changing it does not change the next turn's value.
    first.pop();
    (first[1] as { tools: unknown[] }).tools.push({ type: 'function', name: 'intruder' });
    const second = collectToolSchemas(tools);
    expect(names(second)).toStrictEqual(['function:a', 'namespace:n', 'function:c', 'tool_search']);
    expect((second[1] as { tools: unknown[] }).tools).toHaveLength(1);
    expect(names(collectToolSchemas(tools, { includeToolSearch: false }))).toStrictEqual(['function:a', 'namespace:n', 'function:c']);
    expect(collectToolSchemas(tools, { toolSearchDescription: 'Find more.' }).at(-1)).toMatchObject({ description: 'Find more.' });
    // Other arrays starting with the same tool: their own value each, whatever was collected before.
    const [a, b, c] = tools as [AnyWorkerAgentTool, AnyWorkerAgentTool, AnyWorkerAgentTool];
    expect(names(collectToolSchemas([a, c, b]))).toStrictEqual(['function:a', 'function:c', 'namespace:n', 'tool_search']);
    expect(names(collectToolSchemas([a]))).toStrictEqual(['function:a']);
    expect(names(collectToolSchemas([a, b, c]))).toStrictEqual(['function:a', 'namespace:n', 'function:c', 'tool_search']);
    for (let round = 0; round < 6; round += 1) expect(names(collectToolSchemas([a, tool(`x${round}`)]))).toStrictEqual(['function:a', `function:x${round}`]);
    expect(names(collectToolSchemas([a, c, b]))).toStrictEqual(['function:a', 'function:c', 'namespace:n', 'tool_search']);
    // The array changed: collected again (and checked again).
    tools[0] = tool('d');
    expect(names(collectToolSchemas(tools))[0]).toBe('function:d');
    tools.push(tool('d'));
    expect(() => collectToolSchemas(tools)).toThrow(ToolSetError);
  });

  it('sends the current fields of a tool object that is not frozen, after a change', () => {
    const editable = { ...tool('draft'), description: 'First text.' } as { -readonly [K in keyof AnyWorkerAgentTool]: AnyWorkerAgentTool[K] };
    const tools = [editable];
    expect(collectToolSchemas(tools)[0]).toMatchObject({ name: 'draft', description: 'First text.' });
    editable.description = 'Second text.';
    editable.schema = z.object({ other: z.boolean() });
    const entry = collectToolSchemas(tools)[0] as { description: string; parameters: { properties: Record<string, unknown> } };
    expect(entry.description).toBe('Second text.');
    expect(Object.keys(entry.parameters.properties)).toStrictEqual(['other']);
    expect(toFunctionToolParam(editable)).toBe(entry);
  });

  it('refuses duplicate tools, listing them', () => {
    const error = toolSetError(() => collectToolSchemas([tool('a'), tool('b'), tool('a'), tool('x', { namespace: 'n' }), tool('x', { namespace: 'n' })]));
    expect(error.toolNames).toStrictEqual(['a', 'n.x']);
    expect(error.message).toContain('Duplicate tools in the tool set: a, n.x');
    expect(error.code).toBe('tool_set_invalid');
  });

  it('allows the same name in different namespaces and at the top level', () => {
    expect(() => collectToolSchemas([tool('search'), tool('search', { namespace: 'github' }), tool('search', { namespace: 'jira' })])).not.toThrow();
  });

  it('refuses a namespace named like a top-level tool', () => {
    const error = toolSetError(() => collectToolSchemas([tool('github'), tool('create_issue', { namespace: 'github' })]));
    expect(error.toolNames).toStrictEqual(['github']);
    expect(error.message).toContain('Namespaces named like top-level tools: github');
  });

  it('refuses names outside ^[a-zA-Z0-9_-]{1,64}$ on tools not made by defineWorkerTool', () => {
    const valid = tool('ok');
    const error = toolSetError(() =>
      collectToolSchemas([valid, { ...valid, name: 'has space' }, { ...valid, name: 'x'.repeat(65) }, { ...valid, name: 'y', namespace: 'a.b' }]),
    );
    expect(error.toolNames).toStrictEqual(['has space', 'x'.repeat(65), 'a.b (namespace of y)']);
  });

  it('conforms to the testkit description of CreateResponse', () => {
    expect(described.validate({ model: 'gpt-5', input: 'hello', tools: everyKindOfTool() })).toBeUndefined();
  });

  it('has a conformance check that can fail (a namespace without a description is refused)', () => {
    expect(described.validate({ model: 'gpt-5', input: 'hello', tools: namespaceWithoutDescription() })?.error).toMatchObject({
      param: 'tools[0].description',
      code: 'missing_required_parameter',
    });
  });

  it.skipIf(!official.present)(`conforms to CreateResponse of the official OpenAPI description${official.present ? '' : ` (${official.skipNote})`}`, () => {
    expect(officialValidate({ model: 'gpt-5', input: 'hello', tools: everyKindOfTool() })).toBeUndefined();
    expect(officialValidate({ model: 'gpt-5', input: 'hello', tools: namespaceWithoutDescription() })).toBeDefined();
  });

  it('is accepted by the testkit server through the openai SDK', async () => {
    const server = await startTestModelServer({ script: [reply.text('ok')], ...(official.present ? { openapiPath: official.path } : {}) });
    try {
      const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 });
      const tools = collectToolSchemas([
        tool('todo', { strict: true }),
        tool('create_issue', { namespace: 'github', namespaceDescription: 'GitHub.', deferLoading: true }),
      ]);
      const response = await client.responses.create({ model: 'test-model', input: 'hi', tools, store: false });
      expect(response.status).toBe('completed');
      expect(server.requests).toHaveLength(1);
      expect((server.requests[0]?.body as { tools: unknown }).tools).toStrictEqual(JSON.parse(JSON.stringify(tools)));
    } finally {
      await server.close();
    }
  });
});

describe('toFunctionToolParam / toolSearchToolParam', () => {
  it('gives the function entry of one tool, memoised', () => {
    const deferred = tool('lookup', { deferLoading: true, namespace: 'n' });
    const entry = toFunctionToolParam(deferred);
    expect(entry).toMatchObject({ type: 'function', name: 'lookup', defer_loading: true, strict: false });
    expect(entry).not.toHaveProperty('namespace');
    expect(toFunctionToolParam(deferred)).toBe(entry);
  });

  it('builds the tool_search entry with a custom description', () => {
    expect(toolSearchToolParam({ description: 'Find.' })).toMatchObject({ type: 'tool_search', execution: 'client', description: 'Find.' });
  });
});
