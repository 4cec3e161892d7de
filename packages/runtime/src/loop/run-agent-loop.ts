import { isAbortError } from '../abort-error.js';
import { describeThrown } from '../describe-thrown.js';
import { approvalGate } from '../dispatch/approval-policy.js';
import type { DispatchOptions } from '../dispatch/dispatch-options.js';
import type { ModelResponse, ResponseInputItem } from '../gateway/model-gateway.js';
import { outputText, toInputItems } from '../gateway/to-input-items.js';
import { type ContextManager, createContextManager } from '../context/context-manager.js';
import { collectToolSchemas, type ResponsesTool } from '../schema/collect-tool-schemas.js';
import { agentToolMap } from '../tool/agent-tool-map.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';
import type { TurnEndReason } from './agent-events.js';
import { type AgentLoopOptions, type AgentLoopResult, DEFAULT_MAX_STEPS } from './agent-loop-options.js';
import { buildModelRequest, modelCallOptions } from './build-model-request.js';
import { type AgentRunState, parseAgentRunState } from './run-state.js';
import { settleCalls } from './settle-calls.js';
import { notRunOutputs, sortOutputItems, stepSlots } from './sort-output-items.js';
import { startsEagerly, startsEarlyUnder, stepCalls } from './step-calls.js';
import { activityHooks, emitMessages, emitUnhandled, streamedMessages, turnEmitter } from './turn-events.js';
import { TurnState } from './turn-state.js';

export type { AgentLoopOptions, AgentLoopResult } from './agent-loop-options.js';
export { DEFAULT_MAX_STEPS } from './agent-loop-options.js';

/** How the turn ends. */
type TurnEnd = { reason: TurnEndReason; error?: string };

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
 * - Eager dispatch (`eagerDispatch`, default on): a call whose tool `eagerStart`s (default: read-only tools) starts
 *   while the response streams, as soon as the gateway reports its item complete, when the model's ordering allows;
 *   other calls, and calls needing approval under `approvalPolicy`, start after the complete response. Outputs are
 *   recorded in the model's order either way.
 * - A response that ended `incomplete` (cut off) does not have its calls run: the calls that started early are
 *   aborted, each call gets an output saying so (the history stays valid) and the model is asked again, within
 *   `maxSteps`. A failed response, or an abort, aborts the calls that started early; nothing of it is recorded.
 * - Calls of the last allowed step are still run (their outputs recorded) before the turn ends `max_steps`.
 *
 * - With an `approvalPolicy`, each call that needs approval is put to it when its turn to start comes; a denied call
 *   gets an error output (who denied it: the agent's config, a person, or no one could be asked; and why) and the
 *   turn goes on; an `ask` holds the call: the other calls
 *   of the response run as their ordering allows, then the turn ends `awaiting_approval` with a `runState`.
 *
 * Resolves (never rejects) with how it ended; `items` is always a valid history to continue from (when paused, the
 * held calls have no output yet: resume, or end them with decisions, before sending `items` elsewhere).
 */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { gateway, signal } = options;
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  const emit = turnEmitter(options.onEvent);
  const listening = options.onEvent !== undefined;
  let resumed: AgentRunState | undefined;
  let resumeError: string | undefined;
  try {
    if (options.resume !== undefined) resumed = parseAgentRunState(options.resume.state);
  } catch (error) {
    resumeError = describeThrown(error);
  }
  const state = new TurnState(resumed !== undefined ? { resumed } : { input: inputItems(options.input), previousResponseId: options.previousResponseId });
  let contextManager: ContextManager | undefined;
  const end = ({ reason, error }: TurnEnd): AgentLoopResult => {
    state.compactions = contextManager?.compactions ?? 0;
    emit({ type: 'turn.completed', reason, steps: state.steps, usage: state.usage, text: state.text, ...(error === undefined ? {} : { error }) });
    return state.result(reason, error);
  };

  let toolSchemas: ResponsesTool[];
  let toolMap: Map<string, AnyWorkerAgentTool>;
  try {
    toolSchemas = collectToolSchemas(options.tools);
    toolMap = agentToolMap(options.tools);
    if (options.context !== false) {
      contextManager = createContextManager({ options: options.context ?? {}, gateway, instructions: options.instructions, tools: toolSchemas, emit });
    }
  } catch (error) {
    emit({ type: 'turn.started', tools: options.tools.length });
    return end({ reason: 'error', error: describeThrown(error) });
  }
  emit({ type: 'turn.started', tools: options.tools.length });
  if (resumeError !== undefined) return end({ reason: 'error', error: resumeError });
  const dispatchOptions: DispatchOptions = {
    ...(signal === undefined ? {} : { signal }),
    ...(options.toolTimeoutMs === undefined ? {} : { timeoutMs: options.toolTimeoutMs }),
    ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
  };
  // Eager dispatch only where some tool could start early (`wrapper` inner calls included: same tools).
  const eager = options.eagerDispatch !== false && options.tools.some(startsEagerly);
  const policy = options.approvalPolicy;
  const history = state.contextHistory(gateway.usesPreviousResponseId);

  try {
    if (resumed !== undefined && options.resume !== undefined) {
      const step = resumed.steps;
      const hooks = activityHooks(emit, listening, step);
      const held = new Set(resumed.pending.map((pending) => pending.callId));
      const gate = approvalGate({ policy, step, emit, decisions: options.resume.decisions, held });
      const calls = stepCalls(toolMap, { ...dispatchOptions, gate, ...hooks.dispatch });
      const ended = await settleCalls(structuredClone(resumed.slots), resumed.terminate, { state, calls, hooks, signal });
      if (ended !== undefined) return end({ reason: ended });
    }
    return end(await runSteps());
  } catch (error) {
    // Not expected (dispatch and the gateway report failures as values or gateway errors); never reject.
    return end({ reason: 'error', error: `The agent loop failed unexpectedly: ${describeThrown(error)}` });
  }

  async function runSteps(): Promise<TurnEnd> {
    while (true) {
      if (signal?.aborted) return { reason: 'aborted' };
      if (state.steps >= maxSteps) return { reason: 'max_steps' };
      state.steps += 1;
      const step = state.steps;
      emit({ type: 'step.started', step });

      const hooks = activityHooks(emit, listening, step);
      const messages = eager && listening ? streamedMessages(emit, step) : undefined;
      const calls = stepCalls(toolMap, {
        ...dispatchOptions,
        gate: approvalGate({ policy, step, emit }),
        ...(messages === undefined ? hooks.dispatch : messages.first(hooks.dispatch)),
        onCallsAdded: hooks.remember,
        ...(eager ? { startsEarly: startsEarlyUnder(policy) } : {}),
      });
      /** Aborts what started early (the response will not be run, `why`); the ids of the response's calls that had started. */
      const abandon = async (why: string): Promise<ReadonlySet<string>> => {
        const abandoned = await calls.abandon(why);
        state.toolCalls += abandoned.outcomes.length;
        return abandoned.startedItemCallIds;
      };

      let response: ModelResponse;
      try {
        const onItemDone = eager ? (messages?.track(calls.onOutputItemDone) ?? calls.onOutputItemDone) : undefined;
        const send = () =>
          gateway.createResponse(buildModelRequest(gateway, state, toolSchemas, options.instructions), modelCallOptions(step, emit, signal, onItemDone));
        if (contextManager === undefined) response = await send();
        else {
          await contextManager.beforeRequest(step, history, signal);
          response = await contextManager.send(step, history, signal, send);
        }
      } catch (error) {
        await abandon('The model response it came from failed');
        return signal?.aborted || isAbortError(error) ? { reason: 'aborted' } : { reason: 'error', error: describeThrown(error) };
      }

      const output = Array.isArray(response.output) ? response.output : [];
      const sorted = sortOutputItems(output);
      state.recordResponse(response.id, response.usage, toInputItems(sorted.kept), outputText(output));
      contextManager?.afterResponse(step, response, history);
      if (response.usage !== undefined) emit({ type: 'usage', step, usage: response.usage });
      messages?.responseDone();
      emitMessages(emit, step, output, messages?.reported);
      if (state.text !== '') emit({ type: 'text.completed', step, text: state.text });
      emitUnhandled(emit, step, sorted.unhandled.values());
      if (!sorted.needsAnswers) {
        await abandon('The model response it came from has no such call');
        return { reason: response.status === 'incomplete' ? 'incomplete' : 'completed' };
      }
      if (response.status === 'incomplete') {
        const why = `The model response it came from was cut off (${response.incompleteReason ?? 'incomplete'})`;
        state.recordOutputs(notRunOutputs(response, sorted, await abandon(why)));
        continue;
      }

      const { slots, callCount } = stepSlots(output, sorted, {
        toolMap,
        tools: options.tools,
        toolSearchLimit: options.toolSearchLimit,
        onSearch: (search, answer) =>
          emit({ type: 'tool_search.completed', step, callId: search.call_id ?? '', query: answer.query, toolNames: answer.toolNames }),
      });
      state.toolCalls += callCount;
      const ended = await settleCalls(slots, false, { state, calls, hooks, signal });
      if (ended !== undefined) return { reason: ended };
    }
  }
}

function inputItems(input: AgentLoopOptions['input']): ResponseInputItem[] {
  return typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : [...input];
}
