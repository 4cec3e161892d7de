import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { flushTracing } from './flush-tracing.js';
import { traceAgentTurn } from './trace-agent-turn.js';

afterEach(() => {
  trace.disable();
});

describe('flushTracing', () => {
  it('exports what a batching SDK still holds, and gives up on a hung export after its bound', async () => {
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 60_000 })] }));
    traceAgentTurn({ model: 'm' }).end();
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    await flushTracing();
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['invoke_agent']);

    trace.disable();
    const hung = { onStart() {}, onEnd() {}, shutdown: async () => undefined, forceFlush: () => new Promise<void>(() => undefined) };
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [hung] }));
    await expect(flushTracing(50)).resolves.toBeUndefined();
  });

  it('does nothing when no SDK is registered', async () => {
    await expect(flushTracing()).resolves.toBeUndefined();
  });
});
