import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createOpenAIResponsesGateway, runAgentLoop, type AgentEvent } from '@core/runtime';
import { createRequestValidator, functionCallOutputs, officialOpenapiDocument, reply, startTestModelServer, type ScriptStep, type TestModelServer } from '@core/testkit';
import { createRuntime, type Runtime } from 'mcporter';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { everythingServer } from './__fixtures__/mcp-servers.js';
import { createMcpToolSource, type McpToolSource } from './mcp-tool-source.js';

// Requests are checked against the testkit's description of the request, and the official document when present.
const official = officialOpenapiDocument();
const validator = official.present ? createRequestValidator(official.path) : undefined;
let dir: string;
let reference: Runtime;
let listed: Awaited<ReturnType<Runtime['listTools']>>;
const opened: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ankole-mcp-e2e-'));
  reference = await createRuntime({ servers: [everythingServer('everything', dir, path.join(dir, 'reference.pid'))], logger: { info() {}, warn() {}, error() {} } });
  listed = await reference.listTools('everything', { includeSchema: true });
});
afterAll(async () => {
  await Promise.all(opened.splice(0).map((item) => item.close()));
  await reference.close();
  await rm(dir, { recursive: true, force: true });
});

function source(options: { deferThreshold?: number } = {}): McpToolSource {
  const created = createMcpToolSource({ servers: [everythingServer('everything', dir, path.join(dir, `${Math.random()}.pid`), 'The everything test server.')], logger: { warn() {} }, ...options });
  opened.push(created);
  return created;
}

async function model(script: ScriptStep[]): Promise<TestModelServer> {
  const server = await startTestModelServer({ script, requestValidator: validator });
  opened.push(server);
  return server;
}

test('the request carries the server tools in a namespace with their schemas unchanged; get-sum runs; a bad argument is an error output', async () => {
  const { tools } = await source().tools();
  const server = await model([
    reply.functionCalls([
      { name: 'get-sum', namespace: 'everything', arguments: { a: 19, b: 23 }, callId: 'sum' },
      { name: 'get-sum', namespace: 'everything', arguments: { a: 'nineteen', b: 23 }, callId: 'bad' },
      { name: 'get-resource-reference', namespace: 'everything', arguments: { resourceType: 'Text', resourceId: 0 }, callId: 'refused' },
    ]),
    reply.text('19 + 23 = 42'),
  ]);
  const events: AgentEvent[] = [];
  const result = await runAgentLoop({
    gateway: createOpenAIResponsesGateway({ baseURL: server.baseURL, apiKey: 'test', model: 'test-model' }),
    tools,
    input: 'What is 19 + 23?',
    onEvent: (event) => events.push(event),
  });
  expect(result.reason).toBe('completed');
  expect(server.requests.every((request) => request.body !== undefined)).toBe(true);

  const sent = server.requests[0]?.body.tools as Array<{ type: string; name: string; description: string; tools: Array<{ name: string; parameters: unknown; defer_loading?: boolean }> }>;
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({ type: 'namespace', name: 'everything', description: 'The everything test server.' });
  expect(sent[0]?.tools.map((tool) => tool.name)).toEqual(listed.map((tool) => tool.name));
  for (const tool of sent[0]?.tools ?? []) {
    expect(tool.parameters).toEqual(listed.find((item) => item.name === tool.name)?.inputSchema);
    expect(tool.defer_loading).toBeUndefined();
  }

  const outputs = functionCallOutputs(server.requests[1]!);
  expect(outputs.find((output) => output.call_id === 'sum')?.output).toBe('The sum of 19 and 23 is 42.');
  const bad = String(outputs.find((output) => output.call_id === 'bad')?.output);
  expect(bad).toMatch(/^Error: invalid arguments for tool "everything\.get-sum"/);
  expect(bad).toContain('$.a: expected number, received string "nineteen"');
  // Valid for the schema, refused by the server (isError: true): an error output with the server's message.
  expect(outputs.find((output) => output.call_id === 'refused')?.output).toBe('Invalid resourceId: 0. Must be a finite positive integer.');
  const completed = events.filter((event) => event.type === 'activity.completed') as Array<AgentEvent & { callId: string; status: string; label: string }>;
  expect(completed.find((event) => event.callId === 'refused')).toMatchObject({ status: 'error', label: 'Called everything.get-resource-reference (error)' });
  expect(completed.find((event) => event.callId === 'sum')).toMatchObject({ status: 'success', label: 'Called everything.get-sum' });
});

test('over the threshold the tools are deferred; tool_search finds get-sum, which the model then calls', async () => {
  const { tools } = await source({ deferThreshold: 3 }).tools();
  const server = await model([
    reply.toolSearchCall({ arguments: { query: 'sum of two numbers' }, callId: 'search' }),
    reply.functionCalls([{ name: 'get-sum', namespace: 'everything', arguments: { a: 1, b: 2 }, callId: 'sum' }]),
    reply.text('3'),
  ]);
  const result = await runAgentLoop({
    gateway: createOpenAIResponsesGateway({ baseURL: server.baseURL, apiKey: 'test', model: 'test-model' }),
    tools,
    input: 'Add 1 and 2.',
  });
  expect(result.reason).toBe('completed');
  const sent = server.requests[0]?.body.tools as Array<{ type: string; name?: string; tools?: Array<{ defer_loading?: boolean }> }>;
  expect(sent.map((tool) => tool.type)).toEqual(['namespace', 'tool_search']);
  expect(sent[0]?.tools?.every((tool) => tool.defer_loading === true)).toBe(true);

  const input = server.requests[1]?.body.input as Array<Record<string, unknown>>;
  const searchOutput = input.find((item) => item.type === 'tool_search_output') as { tools: Array<{ type: string; name: string; tools: Array<{ name: string; parameters: unknown }> }> };
  expect(searchOutput.tools[0]).toMatchObject({ type: 'namespace', name: 'everything' });
  const found = searchOutput.tools[0]?.tools.find((tool) => tool.name === 'get-sum');
  expect(found?.parameters).toEqual(listed.find((tool) => tool.name === 'get-sum')?.inputSchema);
  expect(functionCallOutputs(server.requests[2]!).find((output) => output.call_id === 'sum')?.output).toBe('The sum of 1 and 2 is 3.');
});
