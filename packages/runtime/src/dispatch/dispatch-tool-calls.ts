import { createCallScheduler } from './call-scheduler.js';
import type { DispatchOptions, FunctionCallItem, ToolCallOutcome } from './dispatch-options.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';

export { callDenial, declinedMessage, DENIAL_SOURCES } from './call-denial.js';
export type { CallDenial, DenialSource } from './call-denial.js';
export type { CallGateAnswer, DispatchOptions, FunctionCallItem, FunctionCallOutputItem, ToolCallOutcome } from './dispatch-options.js';
export { DEFAULT_MAX_CONCURRENCY, DEFAULT_TOOL_TIMEOUT_MS } from './dispatch-options.js';

/**
 * Validates and runs one model response's function calls; one outcome per call, in the model's order.
 *
 * A call is looked up by `namespace.name` when it has a `namespace`, else by `name`. Unknown tools and
 * invalid arguments become error outputs; consecutive `parallel` calls run concurrently (at most
 * `maxConcurrency` at once); a `sequential` call waits for every call before it and blocks every call after
 * it. Each call gets a timeout (the tool's `timeoutMs`, else `options.timeoutMs`, else 120 s) that both ends
 * the wait and aborts the signal the tool received. When `options.signal` aborts, every call not finished
 * gets an aborted output at once and nothing else starts.
 *
 * Never throws for a tool's failure: every failure becomes an error output (`Error: …`) the model sees.
 */
export function dispatchToolCalls(
  calls: readonly FunctionCallItem[],
  toolMap: ReadonlyMap<string, AnyWorkerAgentTool>,
  options: DispatchOptions = {},
): Promise<ToolCallOutcome[]> {
  const scheduler = createCallScheduler(toolMap, options);
  scheduler.add(calls);
  return scheduler.close();
}
