import { describeThrown } from '../describe-thrown.js';
import type { ArgumentRepair } from '../repair/argument-repair.js';
import { callKey } from '../tool/agent-tool-map.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';
import { validateToolArguments } from '../validation/validate-tool-arguments.js';
import { activityLabel, type CallFacts, failedOutcome } from './call-outcomes.js';
import type { FunctionCallItem, ToolCallOutcome } from './dispatch-options.js';

/** How many tool names an "unknown tool" error lists at most. */
const MAX_LISTED_TOOL_NAMES = 40;

/** A call after lookup and validation: ready to run, or already failed with the outcome to record. */
export type Preparation =
  | { ok: true; call: FunctionCallItem; tool: AnyWorkerAgentTool; params: unknown; label: string; repairs: ArgumentRepair[] }
  | { ok: false; call: FunctionCallItem; outcome: ToolCallOutcome };

/** Looks the tool up (by `callKey`) and validates the arguments; never throws. */
export function prepareCall(call: FunctionCallItem, toolMap: ReadonlyMap<string, AnyWorkerAgentTool>): Preparation {
  const calledName = callKey(call);
  const tool = toolMap.get(calledName);
  if (tool === undefined) {
    return { ok: false, call, outcome: failedOutcome({ call, tool, label: calledName, repairs: [] }, unknownToolMessage(calledName, toolMap)) };
  }
  let validation: ReturnType<typeof validateToolArguments>;
  try {
    validation = validateToolArguments(tool, typeof call.arguments === 'string' ? call.arguments : '');
  } catch (thrown) {
    // validateToolArguments never throws by contract; a bug there must not break the turn's history.
    validation = { ok: false, message: `the arguments could not be checked (${describeThrown(thrown)}).` };
  }
  if (!validation.ok) {
    const message = `invalid arguments for tool "${calledName}": ${validation.message}`;
    return { ok: false, call, outcome: failedOutcome({ call, tool, label: calledName, repairs: [] }, message) };
  }
  const label = activityLabel(tool, validation.params, calledName);
  return { ok: true, call, tool, params: validation.params, label, repairs: validation.repairs };
}

/** The facts every outcome of the call carries, whether it was ready or failed. */
export function callFacts(preparation: Preparation): CallFacts {
  if (preparation.ok) return preparation;
  const { outcome } = preparation;
  return { call: preparation.call, tool: outcome.tool, label: outcome.label, repairs: outcome.repairs };
}

/** A ready call of a `sequential` tool: it waits for every call before it and blocks every call after it. */
export function isSequential(preparation: Preparation): boolean {
  return preparation.ok && preparation.tool.executionMode === 'sequential';
}

function unknownToolMessage(calledName: string, toolMap: ReadonlyMap<string, AnyWorkerAgentTool>): string {
  const names = [...toolMap.keys()];
  if (names.length === 0) return `unknown tool "${calledName}": no tools are available in this turn.`;
  const listed = names.slice(0, MAX_LISTED_TOOL_NAMES).join(', ');
  const more = names.length > MAX_LISTED_TOOL_NAMES ? ` (and ${names.length - MAX_LISTED_TOOL_NAMES} more)` : '';
  return `unknown tool "${calledName}". Call one of the available tools: ${listed}${more}.`;
}
