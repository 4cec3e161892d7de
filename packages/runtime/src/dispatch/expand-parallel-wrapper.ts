import type { FunctionCallItem, FunctionCallOutputItem, ToolCallOutcome } from './dispatch-tool-calls.js';
import { isJSONObject } from '../json.js';
import { callKey } from '../tool/agent-tool-map.js';
import { parseArgumentsJson } from '../repair/parse-arguments-json.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';

/** The name space some models put real tools under inside the wrapper (`functions.read_file`). */
const RECIPIENT_PREFIX = 'functions.';

/** A `multi_tool_use.parallel` call taken apart: the wrapper as the model sent it, and one call per `tool_uses` entry. */
export interface ParallelWrapper {
  wrapper: FunctionCallItem;
  /** Call ids `<wrapper call_id>#1`, `#2`, … (never sent to the model: it gets one output on the wrapper's id). */
  calls: FunctionCallItem[];
}

/**
 * Takes apart the `multi_tool_use.parallel` wrapper some OpenAI models emit as an ordinary function call (name
 * `parallel`, or `multi_tool_use.parallel`, or `parallel` in namespace `multi_tool_use`) with arguments
 * `{ "tool_uses": [{ "recipient_name": "functions.NAME", "parameters": { … } }, …] }`. Each entry becomes a
 * function call of `NAME` (`ns.NAME` for a namespaced tool) with `parameters` as its JSON arguments, to be looked up,
 * validated and dispatched like any other.
 *
 * Returns `undefined` (the call is an ordinary one) when the turn has a real tool of that name, or when the
 * arguments have no non-empty `tool_uses` list of objects with a string `recipient_name`. Never throws.
 */
export function expandParallelWrapper(call: FunctionCallItem, toolMap: ReadonlyMap<string, AnyWorkerAgentTool>): ParallelWrapper | undefined {
  const calledName = callKey(call);
  if (calledName !== 'parallel' && calledName !== 'multi_tool_use.parallel') return undefined;
  if (toolMap.has(calledName) || toolMap.has('parallel')) return undefined;
  const parsed = parseArgumentsJson(typeof call.arguments === 'string' ? call.arguments : '');
  if (!parsed.ok) return undefined;
  const toolUses = parsed.value.tool_uses;
  if (!Array.isArray(toolUses) || toolUses.length === 0) return undefined;
  const calls: FunctionCallItem[] = [];
  for (const [index, toolUse] of toolUses.entries()) {
    if (!isJSONObject(toolUse) || typeof toolUse.recipient_name !== 'string') return undefined;
    const recipient = toolUse.recipient_name.startsWith(RECIPIENT_PREFIX) ? toolUse.recipient_name.slice(RECIPIENT_PREFIX.length) : toolUse.recipient_name;
    // Tool and namespace names hold no dot: `ns.name` is a namespaced tool.
    const dot = recipient.indexOf('.');
    const inner: FunctionCallItem = {
      type: 'function_call',
      call_id: `${call.call_id}#${index + 1}`,
      name: dot === -1 ? recipient : recipient.slice(dot + 1),
      arguments: JSON.stringify(toolUse.parameters ?? {}),
    };
    if (dot !== -1) inner.namespace = recipient.slice(0, dot);
    calls.push(inner);
  }
  return { wrapper: call, calls };
}

/**
 * The one `function_call_output` that answers the wrapper: the inner calls' outputs in the order of `tool_uses`,
 * each under a line naming its recipient. All-text outputs give one string; image parts are kept as parts.
 */
export function parallelWrapperOutput(wrapper: ParallelWrapper, outcomes: readonly ToolCallOutcome[]): FunctionCallOutputItem {
  type Part = Exclude<FunctionCallOutputItem['output'], string>[number];
  const parts: Part[] = [];
  wrapper.calls.forEach((call, index) => {
    const recipient = callKey(call);
    const output = outcomes[index]?.output.output ?? '';
    const header = `${index === 0 ? '' : '\n\n'}[${index + 1}] ${RECIPIENT_PREFIX}${recipient}:\n`;
    if (typeof output === 'string') parts.push({ type: 'input_text', text: header + output });
    else parts.push({ type: 'input_text', text: header }, ...output);
  });
  const allText = parts.every((part) => part.type === 'input_text');
  return {
    type: 'function_call_output',
    call_id: wrapper.wrapper.call_id,
    output: allText ? parts.map((part) => (part as { text: string }).text).join('') : parts,
  };
}
