/**
 * Whether an OpenTelemetry SDK has registered a global tracer provider in this process, read from the API's
 * process-wide registry (`Symbol.for('opentelemetry.js.api.1')`) without loading `@opentelemetry/api`. A caller
 * checks this before importing `@core/otel`, so a process with no SDK pays nothing for tracing.
 */
export function isOpenTelemetryRegistered(): boolean {
  const registry = (globalThis as Record<symbol, unknown>)[Symbol.for('opentelemetry.js.api.1')];
  return typeof registry === 'object' && registry !== null && (registry as { trace?: unknown }).trace !== undefined;
}
