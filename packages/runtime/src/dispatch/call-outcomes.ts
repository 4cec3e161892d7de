import type { ActivityStatus } from '../loop/agent-events.js';
import { describeThrown } from '../describe-thrown.js';
import type { ArgumentRepair } from '../repair/argument-repair.js';
import { callKey } from '../tool/agent-tool-map.js';
import { abortedOutputText, errorOutputItem, isToolContent, toolOutputItem, type FunctionCallOutputItem } from '../tool/tool-output.js';
import type { AgentToolResult, AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';
import { declinedMessage, type CallDenial } from './call-denial.js';
import type { FunctionCallItem, ToolCallOutcome } from './dispatch-options.js';

/** What every outcome of one call shares: the call, its tool (when one matched), its label and repairs. */
export interface CallFacts {
  call: FunctionCallItem;
  tool: AnyWorkerAgentTool | undefined;
  label: string;
  repairs: ArgumentRepair[];
}

/** An outcome with every field that always exists set (in one shape); the callers add the optional ones. */
function newOutcome(facts: CallFacts, status: ActivityStatus, output: FunctionCallOutputItem, started: boolean, durationMs: number): ToolCallOutcome {
  const { call, tool, label } = facts;
  const outcome: ToolCallOutcome = {
    callId: call.call_id,
    name: call.name,
    label,
    completedLabel: label,
    repairs: facts.repairs,
    durationMs,
    terminateTurn: false,
    started,
    status,
    output,
  };
  if (call.namespace !== undefined && call.namespace !== null && call.namespace !== '') outcome.namespace = call.namespace;
  if (tool !== undefined) outcome.tool = tool;
  return outcome;
}

/** A call that did not run (unknown tool, invalid arguments, declined): an error output with `message`. */
export function failedOutcome(facts: CallFacts, message: string): ToolCallOutcome {
  const output = errorOutputItem(facts.call.call_id, message);
  const outcome = newOutcome(facts, 'error', output, false, 0);
  outcome.error = output.output as string;
  return outcome;
}

/** A call the gate denied: an error output worded for who denied it (`declinedMessage`), and the denial kept on the outcome. */
export function deniedOutcome(facts: CallFacts, denial: CallDenial): ToolCallOutcome {
  const outcome = failedOutcome(facts, declinedMessage(callKey(facts.call), denial.reason, denial.by));
  outcome.denial = denial;
  return outcome;
}

/** A call without output: `held` by the gate (its validated `params` kept), or `deferred` behind a held one. */
export function pendingOutcome(facts: CallFacts, pending: 'held' | 'deferred', params?: unknown): ToolCallOutcome {
  const outcome = newOutcome(facts, 'error', { type: 'function_call_output', call_id: facts.call.call_id, output: '' }, false, 0);
  outcome.pending = pending;
  if (pending === 'held') outcome.params = params;
  return outcome;
}

/** A call stopped by the turn's abort (or an abandoned response): `stop.reason` says why. */
export function abortedOutcome(facts: CallFacts, started: boolean, durationMs: number, stop: { reason?: unknown } | undefined): ToolCallOutcome {
  const text = abortedOutputText({ toolName: facts.tool?.name ?? facts.call.name, started, stop });
  const output: FunctionCallOutputItem = { type: 'function_call_output', call_id: facts.call.call_id, output: text };
  const outcome = newOutcome(facts, 'aborted', output, started, durationMs);
  outcome.error = text;
  return outcome;
}

/** A call whose timeout passed: `message` is the `ToolTimeoutError`'s. */
export function timeoutOutcome(facts: CallFacts, message: string, durationMs: number): ToolCallOutcome {
  const output = errorOutputItem(facts.call.call_id, `${message} Try again with a smaller task, or do without this tool.`);
  const outcome = newOutcome(facts, 'timeout', output, true, durationMs);
  outcome.error = message;
  return outcome;
}

export function thrownOutcome(facts: CallFacts, thrown: unknown, durationMs: number): ToolCallOutcome {
  const message = describeThrown(thrown);
  const output = errorOutputItem(facts.call.call_id, `tool "${callKey(facts.call)}" failed: ${message}`);
  const outcome = newOutcome(facts, 'error', output, true, durationMs);
  outcome.error = message;
  return outcome;
}

/** What `execute` returned, checked: a result, or an error outcome saying the tool broke its contract. */
export function resultOutcome(facts: CallFacts & { tool: AnyWorkerAgentTool }, params: unknown, returned: unknown, durationMs: number): ToolCallOutcome {
  if (returned === null || typeof returned !== 'object' || !isToolContent((returned as { content?: unknown }).content)) {
    const error = new Error(
      `it returned no valid result (expected { content: string | input_text/input_image parts }); this is a bug in the tool "${callKey(facts.call)}"`,
    );
    return thrownOutcome(facts, error, durationMs);
  }
  const result = returned as AgentToolResult;
  const isError = result.isError === true;
  const outcome = newOutcome(facts, isError ? 'error' : 'success', toolOutputItem(facts.call.call_id, result.content), true, durationMs);
  outcome.completedLabel = completedLabel(facts.tool, params, result, facts.label);
  outcome.terminateTurn = result.terminateTurn === true;
  outcome.result = result;
  if (isError) outcome.error = typeof result.content === 'string' ? result.content : 'The tool reported an error.';
  return outcome;
}

/** `describeActivity(params)`, or `fallback` when it throws or gives no text. */
export function activityLabel(tool: AnyWorkerAgentTool, params: unknown, fallback: string): string {
  try {
    return labelOr(tool.describeActivity(params), fallback);
  } catch {
    return fallback;
  }
}

/** `describeCompletedActivity(params, result)` when the tool has one, else (or when it throws or gives no text) `label`. */
function completedLabel(tool: AnyWorkerAgentTool, params: unknown, result: AgentToolResult, label: string): string {
  const describeCompleted = tool.describeCompletedActivity;
  if (describeCompleted === undefined) return label;
  try {
    return labelOr(describeCompleted(params, result), label);
  } catch {
    return label;
  }
}

function labelOr(label: unknown, fallback: string): string {
  return typeof label === 'string' && label !== '' ? label : fallback;
}
