import { functionCallOutputs, reply, startTestModelServer, type ScriptStep, type TestModelServer, type TestModelServerOptions } from '@core/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../loop/agent-events.js';
import { eventLog, gatewayFor, historyProblem, sharedValidator, textTool } from '../__fixtures__/loop-harness.js';
import type { OpenAIResponsesGatewayOptions } from '../gateway/openai-responses-gateway.js';
import { runAgentLoop, type AgentLoopOptions } from '../loop/run-agent-loop.js';
import { localCompactor } from './local-compactor.js';

/*
 * The proof: a turn that reads 40 files of about 20 KB, one per step, against a testkit window of 80k tokens
 * (characters / 4), which holds about 15 of them. Every request goes through the real openai SDK to the testkit,
 * whose checks (its own request description, the official OpenAPI document when present, the API's semantic
 * checks) must pass; the scripted model checks that each call's whole output reaches it at the step after.
 */
const FILES = 40;
const WINDOW = 80_000;

const servers: TestModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function fileText(name: string): string {
  const line = `${name}: the quick brown fox jumps over the lazy dog, line after line of a large file.\n`;
  return line.repeat(Math.ceil(20_480 / line.length)).slice(0, 20_480);
}

/** The scripted model: reads f0 … f39 one per step, then answers; notes each step that did not see the last output whole. */
function readingScript(missed: string[]): ScriptStep[] {
  const steps: ScriptStep[] = [];
  for (let index = 0; index <= FILES; index += 1) {
    steps.push((request) => {
      if (index > 0) {
        const expected = fileText(`f${index - 1}`);
        const seen = functionCallOutputs(request).find((item) => item.call_id === `call_read_${index - 1}`);
        if (seen?.output !== expected) missed.push(`step ${index}: the output of f${index - 1} was ${seen === undefined ? 'absent' : 'altered'}`);
      }
      return index < FILES
        ? reply.functionCalls([{ name: 'read_file', arguments: { text: `f${index}` }, callId: `call_read_${index}` }])
        : reply.text('read them all');
    });
  }
  return steps;
}

async function longTurn(options: { server?: TestModelServerOptions; gateway?: Partial<OpenAIResponsesGatewayOptions>; loop?: Partial<AgentLoopOptions> } = {}) {
  const missed: string[] = [];
  const requestValidator = sharedValidator();
  const server = await startTestModelServer({
    script: readingScript(missed),
    contextWindow: WINDOW,
    ...(requestValidator === undefined ? {} : { requestValidator }),
    ...options.server,
  });
  servers.push(server);
  const log = eventLog();
  const result = await runAgentLoop({
    gateway: gatewayFor(server, { model: 'small-window-model', maxRetries: 0, ...options.gateway }),
    tools: [textTool('read_file', (name) => fileText(name))],
    input: 'Read the files f0 to f39, one at a time.',
    instructions: 'You read files.',
    maxSteps: FILES + 5,
    onEvent: log.onEvent,
    ...options.loop,
    context: options.loop?.context === false ? false : { windows: { 'small-window-model': WINDOW }, ...options.loop?.context },
  });
  const compactions = log.of('context.compacted');
  return { result, missed, server, compactions, log };
}

const paths = (server: TestModelServer) => server.requests.map((request) => request.path);

describe('a 40-step turn with 20 KB tool outputs and an 80k-token window', () => {
  it('fails without compaction: the model refuses the request as too long', async () => {
    const { result, server } = await longTurn({ loop: { context: false } });
    expect(result.reason).toBe('error');
    expect(result.error).toContain('context_length_exceeded');
    expect(result.steps).toBeLessThan(20);
    expect(paths(server)).not.toContain('/v1/responses/compact');
  }, 60_000);

  it('with compaction off (compactor: false), fails with the request size and the window', async () => {
    const { result } = await longTurn({ loop: { context: { compactor: false } } });
    expect(result.reason).toBe('error');
    expect(result.error).toMatch(/about [\d,]+ tokens \(4 characters a token\) against the 80,000-token window set for model small-window-model/);
    expect(result.error).toContain('Context compaction is off');
  }, 60_000);

  it('completes through the server compact endpoint, every output seen whole at the step after', async () => {
    const { result, missed, server, compactions } = await longTurn();
    expect(missed).toEqual([]);
    expect(result.reason).toBe('completed');
    expect(result.text).toBe('read them all');
    expect(result.toolCalls).toBe(FILES);
    expect(compactions.length).toBeGreaterThan(1);
    expect(new Set(compactions.map((event) => event.strategy))).toEqual(new Set(['server']));
    expect(compactions.every((event) => event.tokensAfter < event.tokensBefore && event.tokensBefore <= WINDOW)).toBe(true);
    expect(result.compactions).toBe(compactions.length);
    expect(paths(server).filter((path) => path === '/v1/responses/compact')).toHaveLength(compactions.length);
    // Every model request was accepted: none over the window, none refused by the request checks.
    expect(server.requests.filter((request) => request.path === '/v1/responses')).toHaveLength(FILES + 1);
    expect(result.items.some((item) => item.type === 'compaction')).toBe(true);
    expect(historyProblem(result.items)).toBeUndefined();
  }, 60_000);

  it('completes with the local strategy when the server has no compact endpoint (the default falls back)', async () => {
    const { result, missed, server, compactions } = await longTurn({ server: { compactEndpoint: false } });
    expect(missed).toEqual([]);
    expect(result.reason).toBe('completed');
    expect(compactions.length).toBeGreaterThan(1);
    expect(new Set(compactions.map((event) => event.strategy))).toEqual(new Set(['local']));
    // The endpoint was tried once; the compactor remembers the server has none.
    expect(paths(server).filter((path) => path === '/v1/responses/compact')).toHaveLength(1);
    expect(server.requests.filter((request) => request.path === '/v1/responses')).toHaveLength(FILES + 1);
    // The user's message stays; older outputs became notes that say what was elided.
    const last = server.requests.at(-1)?.body.input as Array<Record<string, unknown>>;
    expect(last[0]).toMatchObject({ role: 'user', content: 'Read the files f0 to f39, one at a time.' });
    expect(String(last.find((item) => item.type === 'function_call_output')?.output)).toMatch(
      /^\[elided by context compaction: the output of read_file\(\{"text":"f0"\}\), 20,480 characters/,
    );
    expect(historyProblem(result.items)).toBeUndefined();
  }, 60_000);

  it('completes with localCompactor() as the only strategy, in previous_response_id mode too', async () => {
    const stateless = await longTurn({ loop: { context: { compactor: localCompactor() } } });
    expect(stateless.missed).toEqual([]);
    expect(stateless.result.reason).toBe('completed');
    expect(paths(stateless.server)).not.toContain('/v1/responses/compact');
    const chained = await longTurn({ gateway: { previousResponseId: true }, loop: { context: { compactor: localCompactor() } } });
    expect(chained.missed).toEqual([]);
    expect(chained.result.reason).toBe('completed');
    // After a compaction the chain restarts: that request carries the whole compacted history, no previous_response_id.
    const restarts = chained.server.requests.filter((request) => request.path === '/v1/responses' && request.body.previous_response_id === undefined);
    expect(restarts.length).toBe(1 + chained.compactions.length);
  }, 90_000);

  it('a turn that continues a stored chain (previous_response_id) compacts the chain through the server', async () => {
    const missed: string[] = [];
    const server = await startTestModelServer({ script: readingScript(missed), contextWindow: WINDOW });
    servers.push(server);
    const gateway = gatewayFor(server, { model: 'small-window-model', maxRetries: 0, previousResponseId: true });
    const base = { gateway, tools: [textTool('read_file', (name) => fileText(name))], context: { windows: { 'small-window-model': WINDOW } } };
    const first = await runAgentLoop({ ...base, input: 'Read the files f0 to f39, one at a time.', maxSteps: 10 });
    expect(first.reason).toBe('max_steps');
    const log = eventLog();
    const second = await runAgentLoop({ ...base, input: first.pendingItems, previousResponseId: first.responseId!, maxSteps: FILES, onEvent: log.onEvent });
    expect(missed).toEqual([]);
    expect(second.reason).toBe('completed');
    const compacts = server.requests.filter((request) => request.path === '/v1/responses/compact');
    // The first compaction compacts the stored chain; after it the loop holds the whole (compacted) history.
    expect(compacts[0]?.body.previous_response_id).toMatch(/^resp_/);
    expect(compacts.slice(1).every((request) => request.body.previous_response_id === undefined)).toBe(true);
    expect(log.of('context.compacted').map((event) => event.strategy)).toContain('server');
    expect(second.compactions).toBeGreaterThan(0);
    expect(historyProblem(second.items)).toBeUndefined();
  }, 60_000);

  it('a refusal (context_length_exceeded) is compacted and sent once more, when the configured window is too large', async () => {
    const { result, missed, compactions } = await longTurn({ loop: { context: { window: 400_000 } } });
    expect(missed).toEqual([]);
    expect(result.reason).toBe('completed');
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions.every((event: Extract<AgentEvent, { type: 'context.compacted' }>) => event.reason === 'overflow')).toBe(true);
  }, 60_000);
});

describe('a request that cannot shrink enough', () => {
  it('ends the turn with the size and the window after one compaction and retry', async () => {
    const requestValidator = sharedValidator();
    const server = await startTestModelServer({
      contextWindow: 10_000,
      ...(requestValidator === undefined ? {} : { requestValidator }),
      script: [reply.functionCalls([{ name: 'read_file', arguments: { text: 'huge' }, callId: 'call_huge' }]), reply.text('never')],
    });
    servers.push(server);
    const result = await runAgentLoop({
      gateway: gatewayFor(server, { maxRetries: 0 }),
      tools: [textTool('read_file', () => 'y'.repeat(200_000))],
      input: 'Read the huge file.',
      context: { window: 10_000, compactor: { name: 'none-left', compact: async () => undefined } },
    });
    expect(result.reason).toBe('error');
    expect(result.error).toMatch(/about 5\d,\d{3} tokens .* against the 10,000-token window set for model test-model\. The history could not be compacted/);
    expect(server.remaining).toBe(1);
  });
});
