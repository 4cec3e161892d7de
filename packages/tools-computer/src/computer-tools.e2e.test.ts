import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createOpenAIResponsesGateway, runAgentLoop, type AgentEvent } from '@core/runtime';
import { createRequestValidator, functionCallOutputs, officialOpenapiDocument, reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { serverEverythingEntry } from './__fixtures__/mcp-servers.js';
import { sandboxMissing } from './__fixtures__/sandbox.js';
import { tempDir } from './__fixtures__/temp-home.js';
import { createComputerTools } from './create-computer-tools.js';
import { loadSkills } from './load-skills.js';
import { projectSkills } from './project-skills.js';

// Requests are checked against the testkit's description of the request, and the official document when present.
const official = officialOpenapiDocument();
const validator = official.present ? createRequestValidator(official.path) : undefined;
let root: Awaited<ReturnType<typeof tempDir>>;
let model: TestModelServer | undefined;

beforeEach(async () => {
  root = await tempDir();
});
afterEach(async () => {
  await model?.close();
  model = undefined;
  await root.dispose();
});

// mcporter runs through `command`, in the sandbox.
const noSandbox = sandboxMissing('computer-tools.e2e.test.ts');

test.skipIf(noSandbox !== undefined)('(needs bubblewrap) an MCP-backed skill: the model reads SKILL.md, runs `mcporter call everything.echo` through command, and the echo reaches it', async () => {
  const home = path.join(root.path, 'home');
  const skillFolder = path.join(root.path, 'skills', 'echo-skill');
  await mkdir(home, { recursive: true });
  await mkdir(skillFolder, { recursive: true });
  await writeFile(
    path.join(skillFolder, 'SKILL.md'),
    [
      '---',
      'name: echo',
      'description: Echo a message back through the everything MCP server.',
      'mcpServers:',
      '  everything:',
      '    command: node',
      `    args: [${JSON.stringify(serverEverythingEntry())}, stdio]`,
      '---',
      '',
      'Run `mcporter call everything.echo message=<text>` with the command tool.',
    ].join('\n'),
  );
  const { skills, problems } = await loadSkills([skillFolder]);
  expect(problems).toEqual([]);
  const projection = await projectSkills(skills, { home });

  model = await startTestModelServer({
    requestValidator: validator,
    script: [
      reply.functionCalls([{ name: 'read_file', arguments: { path: '.skills/echo/SKILL.md' }, callId: 'read' }]),
      reply.functionCalls([{ name: 'command', arguments: { command: 'mcporter call everything.echo message=hi' }, callId: 'echo' }]),
      (request) => reply.text(`The server said: ${String(functionCallOutputs(request).find((output) => output.call_id === 'echo')?.output)}`),
    ],
  });
  const events: AgentEvent[] = [];
  const result = await runAgentLoop({
    gateway: createOpenAIResponsesGateway({ baseURL: model.baseURL, apiKey: 'test', model: 'test-model' }),
    tools: createComputerTools({ home }),
    instructions: projection.instructions,
    input: 'Echo "hi" with your echo skill.',
    onEvent: (event) => events.push(event),
  });

  expect(result.reason).toBe('completed');
  expect(model.requests[0]?.body.instructions).toContain('- echo: Echo a message back through the everything MCP server. (instructions: .skills/echo/SKILL.md) MCP servers: everything.');
  const tools = (model.requests[0]?.body.tools as Array<{ name: string }>).map((tool) => tool.name);
  expect(tools).toEqual(['command', 'read_file', 'list_files', 'search_files', 'write_file', 'edit_file']);
  expect(String(functionCallOutputs(model.requests[1]!).find((output) => output.call_id === 'read')?.output)).toContain('mcporter call everything.echo message=<text>');
  const echoed = String(functionCallOutputs(model.requests[2]!).find((output) => output.call_id === 'echo')?.output);
  expect(echoed).toMatch(/^Exit code 0 /);
  expect(echoed).toContain('Echo: hi');
  expect(result.text).toContain('Echo: hi');
  const labels = events.flatMap((event) => ('label' in event && typeof event.label === 'string' ? [`${event.type}: ${event.label}`] : []));
  expect(labels).toContain('activity.started: Running `mcporter call everything.echo message=hi`');
  expect(labels.some((label) => /^activity\.completed: Ran `mcporter call everything\.echo message=hi` \(exit 0, [\d.]+ (ms|s)\)$/.test(label))).toBe(true);
  expect(labels).toContain('activity.completed: Read .skills/echo/SKILL.md (10 lines)');
});

test('write_file and edit_file results reach the UI as file presentation events (paths relative to the home), never the model', async () => {
  const home = path.join(root.path, 'home');
  await mkdir(home, { recursive: true });
  model = await startTestModelServer({
    requestValidator: validator,
    script: [
      reply.functionCalls([{ name: 'write_file', arguments: { path: 'notes/today.md', content: '# Today\n- draft\n' }, callId: 'write' }]),
      reply.functionCalls([{ name: 'edit_file', arguments: { path: path.join(home, 'notes/today.md'), old_string: 'draft', new_string: 'final' }, callId: 'edit' }]),
      reply.functionCalls([{ name: 'write_file', arguments: { path: 'notes/today.md', content: 'done\n' }, callId: 'rewrite' }]),
      reply.text('Saved.'),
    ],
  });
  const events: AgentEvent[] = [];
  const result = await runAgentLoop({
    gateway: createOpenAIResponsesGateway({ baseURL: model.baseURL, apiKey: 'test', model: 'test-model' }),
    tools: createComputerTools({ home }),
    input: 'Keep a note.',
    onEvent: (event) => events.push(event),
  });
  expect(result.reason).toBe('completed');
  const presented = events.flatMap((event) => (event.type === 'presentation' ? [{ callId: event.callId, toolName: event.toolName, ...event.event }] : []));
  expect(presented).toEqual([
    { callId: 'write', toolName: 'write_file', kind: 'file', path: 'notes/today.md', action: 'created', bytes: 16 },
    { callId: 'edit', toolName: 'edit_file', kind: 'file', path: 'notes/today.md', action: 'edited', bytes: 16 },
    { callId: 'rewrite', toolName: 'write_file', kind: 'file', path: 'notes/today.md', action: 'updated', bytes: 5 },
  ]);
  // The model sees the text result only.
  expect(String(functionCallOutputs(model.requests[1]!).find((output) => output.call_id === 'write')?.output)).toBe('Created notes/today.md (2 lines, 16 bytes).');
  expect(JSON.stringify(model.requests.map((request) => request.body))).not.toContain('"kind":"file"');
});
