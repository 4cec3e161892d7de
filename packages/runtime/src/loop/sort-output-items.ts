import type { FunctionCallItem } from '../dispatch/dispatch-options.js';
import { expandParallelWrapper } from '../dispatch/expand-parallel-wrapper.js';
import type { ModelResponse, ResponseInputItem, ResponseOutputItem } from '../gateway/model-gateway.js';
import { errorOutputText } from '../tool/tool-output.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';
import { answerToolSearch, type ToolSearchAnswer, type ToolSearchCallItem } from './answer-tool-search.js';
import { type UnhandledCall, unhandledCall } from './answer-unhandled-calls.js';
import type { StepSlot } from './run-state.js';

/** A response's output items sorted by what the loop does with them. */
export interface SortedOutput {
  /** The function calls, in the model's order (`multi_tool_use.parallel` wrappers not taken apart yet). */
  calls: FunctionCallItem[];
  /** The client-executed tool searches. */
  searches: ToolSearchCallItem[];
  /** The client-executed calls the runtime has no tool for (see `unhandledCall`). */
  unhandled: Map<ResponseOutputItem, UnhandledCall>;
  /** The items that enter the history (a `computer_call` is left out). */
  kept: ResponseOutputItem[];
  /** Whether anything of the response needs an answer before the model is asked again. */
  needsAnswers: boolean;
}

export function sortOutputItems(output: readonly ResponseOutputItem[]): SortedOutput {
  const calls: FunctionCallItem[] = [];
  const searches: ToolSearchCallItem[] = [];
  const unhandled = new Map<ResponseOutputItem, UnhandledCall>();
  const kept: ResponseOutputItem[] = [];
  let answered = false;
  for (const item of output) {
    const call = unhandledCall(item);
    if (call !== undefined) {
      unhandled.set(item, call);
      answered ||= call.kind === 'answered';
    }
    if (call?.kind !== 'left_out') kept.push(item);
    if (item.type === 'function_call') calls.push(item);
    else if (item.type === 'tool_search_call' && item.execution === 'client') searches.push(item);
  }
  return { calls, searches, unhandled, kept, needsAnswers: calls.length > 0 || searches.length > 0 || answered };
}

/** What `stepSlots` needs besides the sorted output. */
export interface StepSlotsOptions {
  toolMap: ReadonlyMap<string, AnyWorkerAgentTool>;
  tools: readonly AnyWorkerAgentTool[];
  toolSearchLimit: number | undefined;
  /** Sees each client tool search answered. */
  onSearch: (search: ToolSearchCallItem, answer: ToolSearchAnswer) => void;
}

/**
 * Every output-bearing item of the response in the model's order: client tool searches answered at once (no I/O),
 * unhandled calls with their error output, function calls waiting for theirs (a `multi_tool_use.parallel` wrapper
 * taken apart into its inner calls, in its place). `callCount` counts the calls to dispatch.
 */
export function stepSlots(output: readonly ResponseOutputItem[], sorted: SortedOutput, options: StepSlotsOptions): { slots: StepSlot[]; callCount: number } {
  const searchOutputs = new Map<ResponseOutputItem, ResponseInputItem>();
  for (const search of sorted.searches) {
    const answer = answerToolSearch(search, options.tools, options.toolSearchLimit === undefined ? {} : { limit: options.toolSearchLimit });
    searchOutputs.set(search, answer.output);
    options.onSearch(search, answer);
  }
  const slots: StepSlot[] = [];
  let callCount = 0;
  for (const item of output) {
    if (item.type === 'function_call') {
      const wrapper = expandParallelWrapper(item, options.toolMap);
      callCount += wrapper === undefined ? 1 : wrapper.calls.length;
      slots.push(wrapper === undefined ? { kind: 'call', call: item } : { kind: 'wrapper', wrapper: item, calls: wrapper.calls.map((call) => ({ call })) });
      continue;
    }
    const answer = item.type === 'tool_search_call' ? searchOutputs.get(item) : answeredOutput(sorted.unhandled.get(item));
    if (answer !== undefined) slots.push({ kind: 'output', output: answer });
  }
  return { slots, callCount };
}

function answeredOutput(call: UnhandledCall | undefined): ResponseInputItem | undefined {
  return call?.kind === 'answered' ? call.output : undefined;
}

/**
 * Outputs for the calls of a cut-off response: none is kept. The model is told why and asked to call again; a call
 * that had started early (while the response streamed, `startedEarly` by item call id) was aborted, and its output
 * says so.
 */
export function notRunOutputs(response: ModelResponse, sorted: SortedOutput, startedEarly: ReadonlySet<string>): ResponseInputItem[] {
  const reason = response.incompleteReason ?? 'incomplete';
  const message = errorOutputText(
    `not run: your previous response was cut off (${reason}) before its tool calls were complete, so none of them were run. ` +
      'Call the tools again (with shorter arguments if they were long).',
  );
  const stopped = errorOutputText(
    `stopped: your previous response was cut off (${reason}) before it was complete. This call had started while the response ` +
      'was streaming; it was aborted and its result discarded. Call the tools again (with shorter arguments if they were long).',
  );
  const outputs: ResponseInputItem[] = [];
  for (const item of response.output) {
    if (item.type === 'function_call') {
      outputs.push({ type: 'function_call_output', call_id: item.call_id, output: startedEarly.has(item.call_id) ? stopped : message });
    } else if (item.type === 'tool_search_call' && item.execution === 'client') {
      const output: ResponseInputItem = { type: 'tool_search_output', execution: 'client', tools: [] };
      if (typeof item.call_id === 'string') output.call_id = item.call_id;
      outputs.push(output);
    } else {
      const answer = answeredOutput(sorted.unhandled.get(item));
      if (answer !== undefined) outputs.push(answer);
    }
  }
  return outputs;
}
