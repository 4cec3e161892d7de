import { isAbortError } from '../abort-error.js';
import { approvalGate, callNeedsApproval, type ApprovalPolicy, type PendingCallDecision } from '../dispatch/approval-policy.js';
import type { AgentEvent, TokenUsage, TurnEndReason } from './agent-events.js';
import { agentToolMap } from '../tool/agent-tool-map.js';
import { answerToolSearch, type ToolSearchCallItem } from './answer-tool-search.js';
import { unhandledCall, type UnhandledCall } from './answer-unhandled-calls.js';
import { collectToolSchemas, type ResponsesTool } from '../schema/collect-tool-schemas.js';
import type { Preparation } from '../dispatch/prepare-call.js';
import { type DispatchOptions, type FunctionCallItem, type FunctionCallOutputItem, type ToolCallOutcome } from '../dispatch/dispatch-tool-calls.js';
import { startsEagerly, stepCalls, type StepCalls } from './step-calls.js';
import { expandParallelWrapper, parallelWrapperOutput, type ParallelWrapper } from '../dispatch/expand-parallel-wrapper.js';
import type { ModelCallOptions, ModelGateway, ModelResponse, ResponseInputItem, ResponseOutputItem } from '../gateway/model-gateway.js';
import { describeThrown } from '../describe-thrown.js';
import { abortedOutputText, errorOutputText } from '../tool/tool-output.js';
import { messageTexts, outputText, toInputItems } from '../gateway/to-input-items.js';
import { fillSlots, openCalls, parseAgentRunState, pendingApproval, slotOutputs, type AgentRunState, type StepSlot } from './run-state.js';
import { addUsage, emptyUsage } from '../gateway/usage.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';

/** Options of `runAgentLoop`. */
export interface AgentLoopOptions {
  gateway: ModelGateway;
  tools: readonly AnyWorkerAgentTool[];
  /** The user's message, or the items to start from (e.g. an earlier turn's `items` plus a new message). Ignored with `resume`. */
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
  /**
   * Decides the calls that need approval (`WorkerAgentTool.needsApproval`): allow, deny with a reason, or ask (the
   * turn pauses, ending `awaiting_approval`). Without a policy every call runs.
   */
  approvalPolicy?: ApprovalPolicy;
  /**
   * Resumes a turn that ended `awaiting_approval` from its `runState`, with a decision per held call (by call id):
   * approved calls run with their validated params, declined ones get an error output saying a person declined and
   * why; a held call left without a decision stays held (the turn pauses again). Calls that were waiting behind a
   * held call go to `approvalPolicy` as usual. The model is not asked again until every call of the paused response
   * has its output. `steps`, `usage` and `toolCalls` go on from the state (`maxSteps` counts the whole turn).
   */
  resume?: { state: AgentRunState; decisions: Readonly<Record<string, PendingCallDecision>> };
  /**
   * Start calls while the response streams (default true), as soon as the gateway reports their item complete
   * (`ModelCallOptions.onOutputItemDone`): calls of tools that `eagerStart` (default: read-only ones) start at once
   * when their ordering allows; the others, and calls needing approval under `approvalPolicy`, wait for the complete
   * response. `false`: every call starts after the whole response.
   */
  eagerDispatch?: boolean;
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
  /** When the turn ended `awaiting_approval`: the plain-JSON state to resume from (`options.resume`). */
  runState?: AgentRunState;
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
 *   gets an error output (a person declined, and why) and the turn goes on; an `ask` holds the call: the other calls
 *   of the response run as their ordering allows, then the turn ends `awaiting_approval` with a `runState`.
 *
 * Resolves (never rejects) with how it ended; `items` is always a valid history to continue from (when paused, the
 * held calls have no output yet: resume, or end them with decisions, before sending `items` elsewhere).
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
  let resumed: AgentRunState | undefined;
  let resumeError: string | undefined;
  if (options.resume !== undefined) {
    try {
      resumed = parseAgentRunState(options.resume.state);
    } catch (error) {
      resumeError = describeThrown(error);
    }
  }
  const items: ResponseInputItem[] =
    resumed !== undefined
      ? [...resumed.items]
      : typeof options.input === 'string'
        ? [{ type: 'message', role: 'user', content: options.input }]
        : [...options.input];
  const usage = resumed === undefined ? emptyUsage() : { ...resumed.usage };
  let steps = resumed?.steps ?? 0;
  let text = '';
  let toolCalls = resumed?.toolCalls ?? 0;
  let responseId = resumed === undefined ? options.previousResponseId : resumed.responseId;
  let runState: AgentRunState | undefined;

  // What the next request sends in previous_response_id mode (the stored response holds the rest).
  let newItems: ResponseInputItem[] = resumed === undefined ? items : [];

  const end = (reason: TurnEndReason, error?: string): AgentLoopResult => {
    const pendingItems = [...newItems];
    const result: AgentLoopResult = { reason, steps, text, items, usage, toolCalls, pendingItems };
    if (error !== undefined) result.error = error;
    if (responseId !== undefined) result.responseId = responseId;
    if (reason === 'awaiting_approval' && runState !== undefined) result.runState = runState;
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
  if (resumeError !== undefined) return end('error', resumeError);
  // Eager dispatch only where some tool could start early (`wrapper` inner calls included: same tools).
  const eager = options.eagerDispatch !== false && options.tools.some(startsEagerly);

  try {
    if (resumed !== undefined && options.resume !== undefined) {
      const held = new Set(resumed.pending.map((pending) => pending.callId));
      const slots = structuredClone(resumed.slots);
      const hooks = activityHooks(resumed.steps);
      const gate = approvalGate({ policy: options.approvalPolicy, step: resumed.steps, emit, decisions: options.resume.decisions, held });
      const calls = stepCalls(toolMap, { ...toolDispatchOptions(), gate, ...hooks.dispatch });
      const paused = await settleCalls(slots, resumed.steps, resumed.terminate, hooks, calls);
      if (paused !== undefined) return paused;
    }
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

      const hooks = activityHooks(step);
      const messages = eager && options.onEvent !== undefined ? streamedMessages(step) : undefined;
      const early = stepCalls(toolMap, {
        ...toolDispatchOptions(),
        gate: approvalGate({ policy: options.approvalPolicy, step, emit }),
        ...(messages === undefined ? hooks.dispatch : messages.first(hooks.dispatch)),
        onCallsAdded: hooks.remember,
        ...(eager ? { startsEarly: (preparation: Preparation) => startsBeforeResponse(preparation) } : {}),
      });
      /** Aborts what started early (the response will not be run, `why`); the ids of the response's calls that had started. */
      const abandonEarly = async (why: string): Promise<ReadonlySet<string>> => {
        const abandoned = await early.abandon(why);
        toolCalls += abandoned.outcomes.length;
        return abandoned.startedItemCallIds;
      };

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
            ...(eager ? { onOutputItemDone: messages === undefined ? early.onOutputItemDone : messages.track(early.onOutputItemDone) } : {}),
          },
        );
      } catch (error) {
        await abandonEarly('The model response it came from failed');
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
      if (messages !== undefined) messages.completed.length = 0;
      for (const message of messageTexts(output)) {
        if (message.text === '' || messages?.reported.has(message.itemId) === true) continue;
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
        emit({ type: 'activity.started', step, callId: call.callId, toolName: call.name, label: `${call.itemType} ${call.name}`, executionMode: 'parallel', isReadOnly: false, isDestructive: false });
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
          isReadOnly: false,
          isDestructive: false,
        });
      }
      if (calls.length === 0 && searches.length === 0 && answered.length === 0) {
        await abandonEarly('The model response it came from has no such call');
        return end(response.status === 'incomplete' ? 'incomplete' : 'completed');
      }

      if (response.status === 'incomplete') {
        const why = `The model response it came from was cut off (${response.incompleteReason ?? 'incomplete'})`;
        const notRun = notRunOutputs(response, unhandled, await abandonEarly(why));
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
      // Every output-bearing item in the model's order; the function calls get their outputs from dispatch.
      const slots: StepSlot[] = [];
      for (const item of output) {
        if (item.type === 'function_call') {
          const wrapper = wrappers.get(item);
          slots.push(wrapper === undefined ? { kind: 'call', call: item } : { kind: 'wrapper', wrapper: item, calls: wrapper.calls.map((call) => ({ call })) });
        } else if (item.type === 'tool_search_call') {
          const answer = searchOutputs.get(item);
          if (answer !== undefined) slots.push({ kind: 'output', output: answer });
        } else {
          const call = unhandled.get(item);
          if (call?.kind === 'answered') slots.push({ kind: 'output', output: call.output });
        }
      }
      const paused = await settleCalls(slots, step, false, hooks, early);
      if (paused !== undefined) return paused;
    }
  }

  /**
   * With eager dispatch, calls start while the response streams: the assistant messages the stream completed before
   * an early call's activity are reported (`message.completed`) ahead of it, so the events keep the model's order
   * (the loop reports the rest after the response, skipping those).
   */
  function streamedMessages(step: number) {
    const completed: ResponseOutputItem[] = [];
    const reported = new Set<string>();
    const report = (): void => {
      for (const message of messageTexts(completed.splice(0))) {
        if (message.text === '') continue;
        reported.add(message.itemId);
        emit({ type: 'message.completed', step, itemId: message.itemId, text: message.text, ...(message.phase === undefined ? {} : { phase: message.phase }) });
      }
    };
    return {
      completed,
      reported,
      /** The gateway callback, noting completed messages. */
      track: (next: NonNullable<ModelCallOptions['onOutputItemDone']>): NonNullable<ModelCallOptions['onOutputItemDone']> => (item, source) => {
        if (item.type === 'message') completed.push(item);
        next(item, source);
      },
      /** The activity hooks, reporting the completed messages first. */
      first: (hooks: Pick<DispatchOptions, 'onCallStarted' | 'onCallCompleted'>): Pick<DispatchOptions, 'onCallStarted' | 'onCallCompleted'> => ({
        onCallStarted: (call, tool, label) => {
          report();
          hooks.onCallStarted?.(call, tool, label);
        },
        onCallCompleted: (outcome) => {
          if (outcome.pending === undefined) report();
          hooks.onCallCompleted?.(outcome);
        },
      }),
    };
  }

  /** Dispatch options every call of the turn gets. */
  /** With eager dispatch: a call whose tool `startsEagerly` may start while its response streams, unless it needs approval. */
  function startsBeforeResponse(preparation: Preparation): boolean {
    const tool = preparation.ok ? preparation.tool : preparation.outcome.tool;
    if (tool === undefined || !startsEagerly(tool)) return false;
    return !(preparation.ok && options.approvalPolicy !== undefined && callNeedsApproval(preparation.tool, preparation.params));
  }

  function toolDispatchOptions(): DispatchOptions {
    return {
      ...(signal === undefined ? {} : { signal }),
      ...(options.toolTimeoutMs === undefined ? {} : { timeoutMs: options.toolTimeoutMs }),
      ...(options.maxConcurrency === undefined ? {} : { maxConcurrency: options.maxConcurrency }),
    };
  }

  /**
   * The activity events of one step's calls, whether they start early or after the response: a call that never
   * started (unknown tool, invalid arguments, aborted) gets its `activity.started` together with its completion.
   */
  function activityHooks(step: number): {
    dispatch: Pick<DispatchOptions, 'onCallStarted' | 'onCallCompleted'>;
    remember: (calls: readonly FunctionCallItem[]) => void;
  } {
    // Without a listener there are no events to build (nor calls to remember for them).
    if (options.onEvent === undefined) return { dispatch: {}, remember: ignoreCalls };
    const started = new Set<string>();
    const known = new Map<string, FunctionCallItem>();
    const dispatch: Pick<DispatchOptions, 'onCallStarted' | 'onCallCompleted'> = {
      onCallStarted: (call, tool, label) => {
        started.add(call.call_id);
        emit(activityStarted(step, call, label, tool.executionMode, tool));
      },
      onCallCompleted: (outcome) => {
        if (outcome.pending !== undefined) return;
        if (!started.has(outcome.callId)) {
          const call = known.get(outcome.callId);
          emit(activityStarted(step, { ...outcome, ...(call === undefined ? {} : { arguments: call.arguments }) }, outcome.label, outcome.tool?.executionMode ?? 'parallel', outcome.tool));
        }
        emit(activityCompleted(step, outcome));
        for (const event of outcome.result?.presentation ?? []) {
          emit({ type: 'presentation', step, callId: outcome.callId, toolName: outcome.name, event });
        }
      },
    };
    const remember = (calls: readonly FunctionCallItem[]): void => {
      for (const call of calls) known.set(call.call_id, call);
    };
    return { dispatch, remember };
  }

  /**
   * Dispatches the calls of `slots` that have no output (through the approval gate), records the outputs and, when
   * every slot is answered, adds them to the history; ends the turn when it pauses, aborts or a result terminates it.
   */
  async function settleCalls(
    slots: StepSlot[],
    step: number,
    terminateBefore: boolean,
    hooks: ReturnType<typeof activityHooks>,
    early: StepCalls,
  ): Promise<AgentLoopResult | undefined> {
    const calls = openCalls(slots);
    hooks.remember(calls);
    const outcomes = await early.finish(calls);
    fillSlots(slots, outcomes);
    const terminate = terminateBefore || outcomes.some((outcome) => outcome.terminateTurn);
    if (outcomes.some((outcome) => outcome.pending !== undefined) && !signal?.aborted) {
      const callById = new Map(calls.map((call) => [call.call_id, call]));
      runState = {
        version: 1,
        items: [...items],
        steps,
        usage: { ...usage },
        toolCalls,
        ...(responseId === undefined ? {} : { responseId }),
        terminate,
        slots,
        pending: outcomes.filter((outcome) => outcome.pending === 'held').map((outcome) => pendingApproval(callById.get(outcome.callId) as FunctionCallItem, outcome)),
      };
      return end('awaiting_approval');
    }
    if (outcomes.some((outcome) => outcome.pending !== undefined)) {
      // Aborted while calls were held: they get aborted outputs, so the history stays valid.
      for (const outcome of outcomes) {
        if (outcome.pending !== undefined) outcome.output = { type: 'function_call_output', call_id: outcome.callId, output: abortedOutputText({ toolName: outcome.name, started: false, stop: signal }) };
      }
      fillSlots(slots, outcomes.map((outcome) => ({ ...outcome, pending: undefined }) as ToolCallOutcome));
    }
    const outputs = slotOutputs(slots);
    items.push(...outputs);
    newItems = outputs;

    if (signal?.aborted) return end('aborted');
    if (terminate) return end('terminated');
    return undefined;
  }
}

function ignoreCalls(): void {}

function activityStarted(
  step: number,
  call: { call_id?: string; callId?: string; name: string; namespace?: string | undefined | null; arguments?: string },
  label: string,
  executionMode: 'parallel' | 'sequential',
  tool: AnyWorkerAgentTool | undefined,
): AgentEvent {
  const event: AgentEvent = {
    type: 'activity.started',
    step,
    callId: call.call_id ?? call.callId ?? '',
    toolName: call.name,
    label,
    executionMode,
    isReadOnly: tool?.isReadOnly ?? false,
    isDestructive: tool?.isDestructive ?? false,
  };
  if (typeof call.namespace === 'string' && call.namespace !== '') event.namespace = call.namespace;
  if (typeof call.arguments === 'string') event.arguments = call.arguments;
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
    isReadOnly: outcome.tool?.isReadOnly ?? false,
    isDestructive: outcome.tool?.isDestructive ?? false,
  };
  if (outcome.namespace !== undefined) event.namespace = outcome.namespace;
  if (outcome.error !== undefined) event.error = outcome.error;
  if (outcome.pending === undefined) event.output = outputAsText(outcome.output.output);
  if (outcome.result?.completeActorEvent !== undefined) event.completeActorEvent = outcome.result.completeActorEvent;
  if (outcome.result?.details !== undefined) event.details = outcome.result.details;
  return event;
}

/** A call's output as text: a string as it is, content parts joined (an image part is `[image]`). */
function outputAsText(output: FunctionCallOutputItem['output']): string {
  if (typeof output === 'string') return output;
  return output.map((part) => (part.type === 'input_text' ? part.text : `[${part.type === 'input_image' ? 'image' : 'file'}]`)).join('\n');
}

/**
 * Outputs for the calls of a cut-off response: none is kept. The model is told why and asked to call again; a call
 * that had started early (while the response streamed, `startedEarly` by item call id) was aborted, and its output
 * says so.
 */
function notRunOutputs(
  response: ModelResponse,
  unhandled: ReadonlyMap<ResponseOutputItem, UnhandledCall>,
  startedEarly: ReadonlySet<string>,
): ResponseInputItem[] {
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
      const call = unhandled.get(item);
      if (call?.kind === 'answered') outputs.push(call.output);
    }
  }
  return outputs;
}
