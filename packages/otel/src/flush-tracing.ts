import { trace } from '@opentelemetry/api';

interface Flushable {
  forceFlush?: () => Promise<void>;
  getDelegate?: () => unknown;
}

/**
 * Exports the spans the registered SDK still holds (its `forceFlush`), within `timeoutMs` (default 5 s), so a
 * process that is about to exit (`process.exit`) loses none. An export that fails or is slow is given up on, never
 * thrown: tracing must not change how a command ends. Does nothing when no SDK is registered.
 */
export async function flushTracing(timeoutMs = 5_000): Promise<void> {
  const global = trace.getTracerProvider() as Flushable;
  const provider = (typeof global.getDelegate === 'function' ? global.getDelegate() : global) as Flushable;
  if (typeof provider.forceFlush !== 'function') return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    provider.forceFlush().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}
