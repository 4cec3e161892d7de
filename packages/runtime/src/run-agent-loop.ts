import { isAbortError } from './abort-error.js';
import type { AgentEvent, TokenUsage, TurnEndReason } from './agent-events.js';
import { agentToolMap } from './agent-tool-map.js';
import { answerToolSearch, type ToolSearchCallItem } from './answer-tool-search.js';
import { unhandledCall, type UnhandledCall } from './answer-unhandled-calls.js';
import { collectToolSchemas, type ResponsesTool } from './collect-tool-schemas.js';
import { dispatchToolCalls, type FunctionCallItem, type ToolCallOutcome } from './dispatch-tool-calls.js';
import { expandParallelWrapper, parallelWrapperOutput, type ParallelWrapper } from './expand-parallel-wrapper.js';
import type { ModelGateway, ModelResponse, ResponseInputItem, ResponseOutputItem } from './model-gateway.js';
import { describeThrown } from './describe-thrown.js';
import { errorOutputText } from './tool-output.js';
import { messageTexts, outputText, toInputItems } from './to-input-items.js';
import { addUsage, emptyUsage } from './usage.js';
import type { AnyWorkerAgentTool } from './worker-agent-tool.js';

/** Options of `runAgentLoop`. */
export interface AgentLoopOptions {
  gateway: ModelGateway;
  tools: readonly AnyWorkerAgentTool[];
  /** The user's message, or the items to start from (e.g. an earlier turn's `items` plus a new message). */
  input: string | ResponseInputItem[];
  instructions?: string;
  /** Most model calls in the turn (default 20). */
  maxSteps?: number;
  signal?: AbortSignal;
  /** Receives every event, in order. An exception thrown here is ignored (it cannot break the turn). */
  onEvent?: (event: AgentEvent) => void;
  /** Default per-tool timeout in ms (default 120 000; a tool's own `timeoutMs` wins). */
  toolTimeoutMs?: number;
  /** How many parallel calls run at once (default 16). */
  maxConcurrency?: number;
  /** Most tools one client `tool_search` returns (default 5). */
  toolSearchLimit?: number;
  /** In `previous_response_id` mode: continue from this stored response (e.g. an earlier turn's `responseId`). */
  previousResponseId?: string;
}

/** How a turn went. */
export interface AgentLoopResult {
  reason: TurnEndReason;
  /** Model calls made. */
  steps: number;
  /**
   * The final assistant text: the last response's answer. With `phase` messages, its `final_answer` text (the
   * `commentary` is in the `message.completed` events); two messages are separated by a blank line.
   */
  text: string;
  /** The whole conversation: the input items and everything added during the turn (always a valid history). */
  items: ResponseInputItem[];
  usage: TokenUsage;
  /** Function calls dispatched (including failed and aborted ones; each call inside a `multi_tool_use.parallel` wrapper counts). */
  toolCalls: number;
  error?: string;
  /** The id of the last response, to continue from in `previous_response_id` mode. */
  responseId?: string;
  /**
   * The items recorded after the last response that no request has carried yet (the tool outputs of the last
   * step when the turn ended `terminated`, `max_steps` or `aborted`). To continue in `previous_response_id` mode,
   * start the next turn with `previousResponseId: responseId` and `input: [...pendingItems, newMessage]`.
   */
  pendingItems: ResponseInputItem[];
}

/** The default of `maxSteps`. */
export const DEFAULT_MAX_STEPS = 20;

/**
 * Runs one turn: model, tools, results, repeat, until the model answers without calling a tool
 * (`completed`), a tool result has `terminateTurn` (`terminated`), `maxSteps` model calls were made
 * (`max_steps`), the signal aborts (`aborted`), a response was cut off without tool calls (`incomplete`), or
 * the model endpoint failed (`error`).
 *
 * - Stateless by default: every request carries the whole history, the model's output items (reasoning
 *   included) echoed back. With a gateway in `previous_response_id` mode, only the new items are sent.
 * - Client `tool_search_call`s are answered with a `tool_search_output` of the matching deferred tools.
 * - A `multi_tool_use.parallel` wrapper call (when no tool is named `parallel`) is taken apart: its inner calls are
 *   validated and dispatched like the others, and the wrapper gets one output with their results in order.
 * - Other client-executed calls the runtime has no tool for (`custom_tool_call`, `apply_patch_call`, a local
 *   `shell_call`, `local_shell_call`) get an error output of their own type and the model is asked again; a
 *   `computer_call` is left out of the history (see `unhandledCall`).
 * - In a `store: false` request the gateway leaves out reasoning without `encrypted_content` (it cannot be replayed).
 * - A response that ended `incomplete` (cut off) does not have its calls run: each call gets an output saying
 *   so (the history stays valid) and the model is asked again, within `maxSteps`.
 * - Calls of the last allowed step are still run (their outputs recorded) before the turn ends `max_steps`.
 *
 * Resolves (never rejects) with how it ended; `items` is always a valid history to continue from.
 */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { gateway, signal } = options;
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const emit = (event: AgentEvent): void => {
    if (options.onEvent === undefined) return;
    try {
      options.onEvent(event);
    } catch {
      // An observer cannot break the turn.
    }
  };
  const items: ResponseInputItem[] =
    typeof options.input === 'string' ? [{ type: 'message', role: 'user', content: options.input }] : [...options.input];
  const usage = emptyUsage();
  let steps = 0;
  let text = '';
  let toolCalls = 0;
  let responseId = options.previousResponseId;

  // What the next request sends in previous_response_id mode (the stored response holds the rest).
  let newItems: ResponseInputItem[] = items;

  const end = (reason: TurnEndReason, error?: string): AgentLoopResult => {
    const pendingItems = [...newItems];
    const result: AgentLoopResult = { reason, steps, text, items, usage, toolCalls, pendingItems };
    if (error !== undefined) result.error = error;
    if (responseId !== undefined) result.responseId = responseId;
    emit({ type: 'turn.completed', reason, steps, usage, text, ...(error === undefined ? {} : { error }) });
    return result;
  };

  let toolSchemas: ResponsesTool[];
  let toolMap: Map<string, AnyWorkerAgentTool>;
  try {
    toolSchemas = collectToolSchemas(options.tools);
    toolMap = agentToolMap(options.tools);
  } catch (error) {
    emit({ type: 'turn.started', tools: options.tools.length });
    return end('error', describeThrown(error));
  }
  emit({ type: 'turn.started', tools: options.tools.length });

  try {
    return await runSteps();
  } catch (error) {
    // Not expected (dispatch and the gateway report failures as values or gateway errors); never reject.
    return end('error', `The agent loop failed unexpectedly: ${describeThrown(error)}`);
  }

  async function runSteps(): Promise<AgentLoopResult> {
    while (true) {
      if (signal?.aborted) return end('aborted');
      if (steps >= maxSteps) return end('max_steps');
      steps += 1;
      const step = steps;
      emit({ type: 'step.started', step });

      let response: ModelResponse;
      try {
        response = await gateway.createResponse(
          {
            input: gateway.usesPreviousResponseId ? newItems : items,
            ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
            tools: toolSchemas,
            ...(gateway.usesPreviousResponseId && responseId !== undefined ? { previousResponseId: responseId } : {}),
          },
          {
            ...(signal === undefined ? {} : { signal }),
            onTextDelta: (delta, source) => emit({ type: 'text.delta', step, delta, itemId: source.itemId, ...(source.phase === undefined ? {} : { phase: source.phase }) }),
          },
        );
      } catch (error) {
        if (signal?.aborted || isAbortError(error)) return end('aborted');
        return end('error', describeThrown(error));
      }

      responseId = response.id;
      if (response.usage !== undefined) {
        addUsage(usage, response.usage);
        emit({ type: 'usage', step, usage: response.usage });
      }
      const output = Array.isArray(response.output) ? response.output : [];
      const unhandled = new Map<ResponseOutputItem, UnhandledCall>();
      for (const item of output) {
        const call = unhandledCall(item);
        if (call !== undefined) unhandled.set(item, call);
      }
      items.push(...toInputItems(output.filter((item) => unhandled.get(item)?.kind !== 'left_out')));
      newItems = [];
      for (const message of messageTexts(output)) {
        if (message.text === '') continue;
        emit({ type: 'message.completed', step, itemId: message.itemId, text: message.text, ...(message.phase === undefined ? {} : { phase: message.phase }) });
      }
      text = outputText(output);
      if (text !== '') emit({ type: 'text.completed', step, text });

      const calls: FunctionCallItem[] = [];
      const searches: ToolSearchCallItem[] = [];
      for (const item of output) {
        if (item.type === 'function_call') calls.push(item);
        else if (item.type === 'tool_search_call' && item.execution === 'client') searches.push(item);
      }
      const answered = [...unhandled.values()].filter((call) => call.kind === 'answered');
      for (const call of unhandled.values()) {
        emit({ type: 'activity.started', step, callId: call.callId, toolName: call.name, label: `${call.itemType} ${call.name}`, executionMode: 'parallel' });
        emit({
          type: 'activity.completed',
          step,
          callId: call.callId,
          toolName: call.name,
          label: `${call.itemType} ${call.name}`,
          status: 'error',
          durationMs: 0,
          repairs: [],
          error: call.error,
        });
      }
      if (calls.length === 0 && searches.length === 0 && answered.length === 0) {
        return end(response.status === 'incomplete' ? 'incomplete' : 'completed');
      }

      if (response.status === 'incomplete') {
        const notRun = notRunOutputs(response, unhandled);
        items.push(...notRun);
        newItems = notRun;
        continue;
      }

      // Client tool searches are answered at once (no I/O); function calls go through dispatch.
      const searchOutputs = new Map<ToolSearchCallItem, ResponseInputItem>();
      for (const search of searches) {
        const answer = answerToolSearch(search, options.tools, options.toolSearchLimit === undefined ? {} : { limit: options.toolSearchLimit });
        searchOutputs.set(search, answer.output);
        emit({ type: 'tool_search.completed', step, callId: search.call_id ?? '', query: answer.query, toolNames: answer.toolNames });
      }
      // A multi_tool_use.parallel wrapper is dispatched as its inner calls, in its place.
      const wrappers = new Map<FunctionCallItem, ParallelWrapper>();
      const dispatched: FunctionCallItem[] = [];
      for (const call of calls) {
        const wrapper = expandParallelWrapper(call, toolMap);
        if (wrapper === undefined) {
          dispatched.push(call);
        } else {
          wrappers.set(call, wrapper);
          dispatched.push(...wrapper.calls);
        }
      }
      toolCalls += dispatched.length;
      const started = new Set<string>();
      const outcomes =
        dispatched.length === 0
          ? []
          : await dispatchToolCalls(dispatched, toolMap, {
              ...(signal === undefined ? {} : { signal }),
              ...(options.toolTimeoutMs === undefined ? {} : { timeoutMs: options.toolTimeoutMs }),
              ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
              onCallStarted: (call, tool, label) => {
                started.add(call.call_id);
                emit(activityStarted(step, call, label, tool.executionMode));
              },
              onCallCompleted: (outcome) => {
                if (!started.has(outcome.callId)) emit(activityStarted(step, outcome, outcome.label, outcome.tool?.executionMode ?? 'parallel'));
                emit(activityCompleted(step, outcome));
                for (const event of outcome.result?.presentation ?? []) {
                  emit({ type: 'presentation', step, callId: outcome.callId, toolName: outcome.name, event });
                }
              },
            });

      // Outputs in the model's order of the calls.
      const outcomeByCall = new Map<FunctionCallItem, ToolCallOutcome>();
      dispatched.forEach((call, index) => outcomeByCall.set(call, outcomes[index] as ToolCallOutcome));
      const outputs: ResponseInputItem[] = [];
      for (const item of output) {
        if (item.type === 'function_call') {
          const wrapper = wrappers.get(item);
          outputs.push(
            wrapper === undefined
              ? (outcomeByCall.get(item) as ToolCallOutcome).output
              : parallelWrapperOutput(wrapper, wrapper.calls.map((call) => outcomeByCall.get(call) as ToolCallOutcome)),
          );
        } else if (item.type === 'tool_search_call') {
          const output = searchOutputs.get(item);
          if (output !== undefined) outputs.push(output);
        } else {
          const call = unhandled.get(item);
          if (call?.kind === 'answered') outputs.push(call.output);
        }
      }
      items.push(...outputs);
      newItems = outputs;

      if (signal?.aborted) return end('aborted');
      if (outcomes.some((outcome) => outcome.terminateTurn)) return end('terminated');
    }
  }
}

function activityStarted(
  step: number,
  call: { call_id?: string; callId?: string; name: string; namespace?: string | undefined | null },
  label: string,
  executionMode: 'parallel' | 'sequential',
): AgentEvent {
  const event: AgentEvent = {
    type: 'activity.started',
    step,
    callId: call.call_id ?? call.callId ?? '',
    toolName: call.name,
    label,
    executionMode,
  };
  if (typeof call.namespace === 'string' && call.namespace !== '') event.namespace = call.namespace;
  return event;
}

function activityCompleted(step: number, outcome: ToolCallOutcome): AgentEvent {
  const event: AgentEvent = {
    type: 'activity.completed',
    step,
    callId: outcome.callId,
    toolName: outcome.name,
    label: outcome.completedLabel,
    status: outcome.status,
    durationMs: outcome.durationMs,
    repairs: outcome.repairs,
  };
  if (outcome.namespace !== undefined) event.namespace = outcome.namespace;
  if (outcome.error !== undefined) event.error = outcome.error;
  if (outcome.result?.completeActorEvent !== undefined) event.completeActorEvent = outcome.result.completeActorEvent;
  if (outcome.result?.details !== undefined) event.details = outcome.result.details;
  return event;
}

/** Outputs for the calls of a cut-off response: none was run; the model is told why and asked to call again. */
function notRunOutputs(response: ModelResponse, unhandled: ReadonlyMap<ResponseOutputItem, UnhandledCall>): ResponseInputItem[] {
  const reason = response.incompleteReason ?? 'incomplete';
  const message = errorOutputText(
    `not run: your previous response was cut off (${reason}) before its tool calls were complete, so none of them were run. ` +
      'Call the tools again (with shorter arguments if they were long).',
  );
  const outputs: ResponseInputItem[] = [];
  for (const item of response.output) {
    if (item.type === 'function_call') {
      outputs.push({ type: 'function_call_output', call_id: item.call_id, output: message });
    } else if (item.type === 'tool_search_call' && item.execution === 'client') {
      const output: ResponseInputItem = { type: 'tool_search_output', execution: 'client', tools: [] };
      if (typeof item.call_id === 'string') output.call_id = item.call_id;
      outputs.push(output);
    } else {
      const call = unhandled.get(item);
      if (call?.kind === 'answered') outputs.push(call.output);
    }
  }
  return outputs;
}
