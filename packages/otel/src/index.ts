export { traceAgentTurn, TRACER_NAME } from './trace-agent-turn.js';
export type { AgentTurnTracing, AgentTurnTracingOptions } from './trace-agent-turn.js';
export { isOpenTelemetryRegistered } from './is-open-telemetry-registered.js';
export { GEN_AI, ANKOLE } from './gen-ai-attributes.js';
export { flushTracing } from './flush-tracing.js';
