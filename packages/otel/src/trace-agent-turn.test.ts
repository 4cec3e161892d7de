import { trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createOpenAIResponsesGateway, defineWorkerTool, runAgentLoop } from '@core/runtime';
import { reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isOpenTelemetryRegistered } from './is-open-telemetry-registered.js';
import { traceAgentTurn } from './trace-agent-turn.js';

let server: TestModelServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  trace.disable();
});

const readNote = defineWorkerTool({
  name: 'read_note',
  description: 'Reads a note by its title.',
  schema: z.object({ title: z.string() }),
  executionMode: 'parallel',
  isReadOnly: true,
  describeActivity: ({ title }) => `Reading ${title}`,
  execute: async ({ title }) => ({ content: `${title}: milk, eggs` }),
});

const deleteNote = defineWorkerTool({
  name: 'delete_note',
  description: 'Deletes a note.',
  schema: z.object({ title: z.string() }),
  executionMode: 'sequential',
  isDestructive: true,
  needsApproval: false,
  describeActivity: ({ title }) => `Deleting ${title}`,
  execute: async () => {
    throw new Error('the note is locked');
  },
});

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer('test') };
}

function byName(spans: ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((span) => span.name === name);
}

describe('traceAgentTurn over a real turn (runAgentLoop, the openai SDK, the testkit)', () => {
  it('makes one turn span, a chat span per model call with usage, and an execute_tool span per call under the turn', async () => {
    server = await startTestModelServer({
      script: [
        reply.functionCalls(
          [
            { name: 'read_note', callId: 'call_read', arguments: { title: 'Groceries' } },
            { name: 'delete_note', callId: 'call_delete', arguments: { title: 'Groceries' } },
          ],
          { usage: { inputTokens: 120, outputTokens: 30, cachedTokens: 100 } },
        ),
        reply.text('Read it; the delete failed.', { usage: { inputTokens: 200, outputTokens: 12 } }),
      ],
    });
    const { exporter, tracer } = tracing();
    const turn = traceAgentTurn({ tracer, model: 'test-model', agentName: 'notes', conversationId: 'job_1', baseURL: server.baseURL });
    const gateway = createOpenAIResponsesGateway({ baseURL: server.baseURL, apiKey: 'test', model: 'test-model' });
    const result = await runAgentLoop({ gateway, tools: [readNote, deleteNote], input: 'Tidy my notes', onEvent: turn.onEvent });
    turn.end(); // after turn.completed: does nothing

    expect(result.reason).toBe('completed');
    const spans = exporter.getFinishedSpans();
    const [agent] = byName(spans, 'invoke_agent notes');
    expect(agent).toBeDefined();
    expect(agent!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'openai',
      'gen_ai.agent.name': 'notes',
      'gen_ai.conversation.id': 'job_1',
      'gen_ai.request.model': 'test-model',
      'gen_ai.usage.input_tokens': 320,
      'gen_ai.usage.output_tokens': 42,
      'ankole.turn.end_reason': 'completed',
      'ankole.turn.steps': 2,
      'ankole.turn.tools': 2,
    });
    expect(agent!.status.code).toBe(SpanStatusCode.UNSET);
    const turnSpanId = agent!.spanContext().spanId;

    const chats = byName(spans, 'chat test-model');
    expect(chats.map((span) => [span.attributes['ankole.step'], span.attributes['gen_ai.usage.input_tokens'], span.attributes['gen_ai.usage.output_tokens']])).toEqual([
      [1, 120, 30],
      [2, 200, 12],
    ]);
    expect(chats[0]!.attributes['gen_ai.usage.cache_read.input_tokens']).toBe(100);
    expect(chats[0]!.kind).toBe(SpanKind.CLIENT);
    expect(chats[0]!.attributes['server.address']).toBe('127.0.0.1');
    expect(typeof chats[0]!.attributes['server.port']).toBe('number');

    const [read] = byName(spans, 'execute_tool read_note');
    const [remove] = byName(spans, 'execute_tool delete_note');
    expect(read!.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'read_note',
      'gen_ai.tool.call.id': 'call_read',
      'gen_ai.tool.type': 'function',
      'ankole.tool.label': 'Reading Groceries',
      'ankole.tool.read_only': true,
      'ankole.tool.status': 'success',
    });
    expect(read!.status.code).toBe(SpanStatusCode.UNSET);
    expect(remove!.attributes).toMatchObject({ 'ankole.tool.destructive': true, 'ankole.tool.status': 'error', 'error.type': 'error' });
    expect(remove!.status).toMatchObject({ code: SpanStatusCode.ERROR });
    expect(remove!.status.message).toContain('the note is locked');
    for (const span of [...chats, read!, remove!]) {
      expect(span.parentSpanContext?.spanId).toBe(turnSpanId);
      expect(span.spanContext().traceId).toBe(agent!.spanContext().traceId);
    }
    expect(spans).toHaveLength(5);
  });

  it('marks the turn and its open model call as failed when the model endpoint fails', async () => {
    server = await startTestModelServer({ script: [reply.errorEvent('the model is overloaded')] });
    const { exporter, tracer } = tracing();
    const turn = traceAgentTurn({ tracer, model: 'test-model' });
    const gateway = createOpenAIResponsesGateway({ baseURL: server.baseURL, apiKey: 'test', model: 'test-model', maxRetries: 0 });
    const result = await runAgentLoop({ gateway, tools: [readNote], input: 'Hello', onEvent: turn.onEvent });

    expect(result.reason).toBe('error');
    const spans = exporter.getFinishedSpans();
    const [agent] = byName(spans, 'invoke_agent');
    const [chat] = byName(spans, 'chat test-model');
    expect(agent!.status.code).toBe(SpanStatusCode.ERROR);
    expect(agent!.attributes).toMatchObject({ 'ankole.turn.end_reason': 'error', 'error.type': 'model_error' });
    expect(chat!.status.code).toBe(SpanStatusCode.ERROR);
    expect(chat!.status.message).toContain('overloaded');
  });

  it('end(error) closes every open span of a turn that threw, once', () => {
    const { exporter, tracer } = tracing();
    const turn = traceAgentTurn({ tracer, model: 'm' });
    turn.onEvent({ type: 'turn.started', tools: 1 });
    turn.onEvent({ type: 'step.started', step: 1 });
    turn.onEvent({ type: 'activity.started', step: 1, callId: 'c1', toolName: 't', label: 'Doing t', executionMode: 'parallel' });
    turn.end(new TypeError('the gateway broke'));
    turn.end(new Error('again'));
    turn.onEvent({ type: 'activity.completed', step: 1, callId: 'c1', toolName: 't', label: 'Doing t', status: 'success', durationMs: 1, repairs: [] });

    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name).sort()).toEqual(['chat m', 'execute_tool t', 'invoke_agent']);
    expect(spans.every((span) => span.status.code === SpanStatusCode.ERROR)).toBe(true);
    const [agent] = byName(spans, 'invoke_agent');
    expect(agent!.attributes['error.type']).toBe('TypeError');
    expect(agent!.events.map((event) => event.name)).toEqual(['exception']);
    const [tool] = byName(spans, 'execute_tool t');
    expect(tool!.attributes['error.type']).toBe('aborted');
  });

  it('records approvals as events of the turn span', () => {
    const { exporter, tracer } = tracing();
    const turn = traceAgentTurn({ tracer, model: 'm' });
    turn.onEvent({ type: 'approval.requested', step: 1, callId: 'c1', toolName: 'rm', label: 'Removing x', params: { path: 'x' }, isReadOnly: false, isDestructive: true });
    turn.onEvent({ type: 'approval.decided', step: 1, callId: 'c1', toolName: 'rm', label: 'Removing x', decision: 'denied', by: 'config', reason: 'keep it' });
    turn.onEvent({ type: 'turn.completed', reason: 'completed', steps: 1, usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, text: '' });
    const [agent] = exporter.getFinishedSpans();
    expect(agent!.events.map((event) => [event.name, event.attributes?.['ankole.approval.decision']])).toEqual([
      ['ankole.approval.requested', undefined],
      ['ankole.approval.decided', 'denied'],
    ]);
    expect(agent!.events[1]!.attributes?.['ankole.approval.reason']).toBe('keep it');
    expect(agent!.events[1]!.attributes?.['ankole.approval.denied_by']).toBe('config');
  });
});

describe('context compaction', () => {
  it('records a compaction as an event of the turn span, with its sizes', () => {
    const { exporter, tracer } = tracing();
    const turn = traceAgentTurn({ tracer, model: 'm' });
    turn.onEvent({ type: 'context.compacted', step: 3, strategy: 'server', reason: 'threshold', tokensBefore: 66_866, tokensAfter: 30_463, window: 80_000, itemsBefore: 40, itemsAfter: 5 });
    turn.onEvent({ type: 'turn.completed', reason: 'completed', steps: 3, usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, text: '' });
    const [agent] = exporter.getFinishedSpans();
    expect(agent!.events.map((event) => [event.name, event.attributes?.['ankole.context.tokens_before'], event.attributes?.['ankole.context.tokens_after']])).toEqual([
      ['ankole.context.compacted', 66_866, 30_463],
    ]);
  });
});

describe('isOpenTelemetryRegistered', () => {
  it('is false until an SDK registers a global tracer provider, and the default tracer then records', () => {
    expect(isOpenTelemetryRegistered()).toBe(false);
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    expect(isOpenTelemetryRegistered()).toBe(true);
    const turn = traceAgentTurn({ model: 'm' });
    turn.onEvent({ type: 'turn.completed', reason: 'completed', steps: 0, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, text: '' });
    expect(exporter.getFinishedSpans().map((span) => span.instrumentationScope.name)).toEqual(['@core/otel']);
  });
});
