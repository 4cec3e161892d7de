import type { DispatchOptions, FunctionCallItem, FunctionCallOutputItem, ToolCallOutcome } from '../dispatch/dispatch-options.js';
import type { ModelCallOptions, ResponseOutputItem } from '../gateway/model-gateway.js';
import { messageTexts } from '../gateway/to-input-items.js';
import type { AnyWorkerAgentTool } from '../tool/worker-agent-tool.js';
import type { AgentEvent } from './agent-events.js';
import type { UnhandledCall } from './answer-unhandled-calls.js';

/** Sends one event to the turn's listener. */
export type Emit = (event: AgentEvent) => void;

/** The dispatch hooks that turn a step's calls into activity events. */
export type CallHooks = Pick<DispatchOptions, 'onCallStarted' | 'onCallCompleted'>;

/** The activity events of one step's calls (see `activityHooks`), and the calls they may need the arguments of. */
export interface ActivityHooks {
  dispatch: CallHooks;
  remember: (calls: readonly FunctionCallItem[]) => void;
}

/** `onEvent` made safe: an exception thrown by the listener is ignored (an observer cannot break the turn). */
export function turnEmitter(onEvent: ((event: AgentEvent) => void) | undefined): Emit {
  return (event) => {
    if (onEvent === undefined) return;
    try {
      onEvent(event);
    } catch {
      // An observer cannot break the turn.
    }
  };
}

/**
 * The activity events of one step's calls, whether they start early or after the response: a call that never
 * started (unknown tool, invalid arguments, aborted) gets its `activity.started` together with its completion.
 * Without a listener (`listening` false) there are no events to build, nor calls to remember for them.
 */
export function activityHooks(emit: Emit, listening: boolean, step: number): ActivityHooks {
  if (!listening) return { dispatch: {}, remember: ignoreCalls };
  const started = new Set<string>();
  const known = new Map<string, FunctionCallItem>();
  const dispatch: CallHooks = {
    onCallStarted: (call, tool, label) => {
      started.add(call.call_id);
      emit(activityStarted(step, call, label, tool.executionMode, tool));
    },
    onCallCompleted: (outcome) => {
      if (outcome.pending !== undefined) return;
      if (!started.has(outcome.callId)) {
        const call = known.get(outcome.callId);
        emit(
          activityStarted(
            step,
            { ...outcome, ...(call === undefined ? {} : { arguments: call.arguments }) },
            outcome.label,
            outcome.tool?.executionMode ?? 'parallel',
            outcome.tool,
          ),
        );
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

function ignoreCalls(): void {}

/** The messages of a response the stream completed, reported while it streams (see `streamedMessages`). */
export interface StreamedMessages {
  /** Item ids of the messages reported already (the loop skips them after the response). */
  reported: Set<string>;
  /** The gateway callback, noting completed messages. */
  track(next: NonNullable<ModelCallOptions['onOutputItemDone']>): NonNullable<ModelCallOptions['onOutputItemDone']>;
  /** The activity hooks, reporting the completed messages first. */
  first(hooks: CallHooks): CallHooks;
  /** The response is complete: the loop reports the messages not reported yet, this no more. */
  responseDone(): void;
}

/**
 * With eager dispatch, calls start while the response streams: the assistant messages the stream completed before
 * an early call's activity are reported (`message.completed`) ahead of it, so the events keep the model's order
 * (the loop reports the rest after the response, skipping those).
 */
export function streamedMessages(emit: Emit, step: number): StreamedMessages {
  const completed: ResponseOutputItem[] = [];
  const reported = new Set<string>();
  const report = (): void => {
    for (const message of messageTexts(completed.splice(0))) {
      if (message.text === '') continue;
      reported.add(message.itemId);
      emitMessage(emit, step, message);
    }
  };
  return {
    reported,
    track: (next) => (item, source) => {
      if (item.type === 'message') completed.push(item);
      next(item, source);
    },
    first: (hooks) => ({
      onCallStarted: (call, tool, label) => {
        report();
        hooks.onCallStarted?.(call, tool, label);
      },
      onCallCompleted: (outcome) => {
        if (outcome.pending === undefined) report();
        hooks.onCallCompleted?.(outcome);
      },
    }),
    responseDone: () => {
      completed.length = 0;
    },
  };
}

/** `message.completed` for each assistant message of `output` with text, except the ones `reported` while streaming. */
export function emitMessages(emit: Emit, step: number, output: readonly ResponseOutputItem[], reported: ReadonlySet<string> | undefined): void {
  for (const message of messageTexts(output)) {
    if (message.text === '' || reported?.has(message.itemId) === true) continue;
    emitMessage(emit, step, message);
  }
}

function emitMessage(emit: Emit, step: number, message: ReturnType<typeof messageTexts>[number]): void {
  emit({ type: 'message.completed', step, itemId: message.itemId, text: message.text, ...(message.phase === undefined ? {} : { phase: message.phase }) });
}

/** An activity that started and failed at once for each call the runtime has no tool for. */
export function emitUnhandled(emit: Emit, step: number, calls: Iterable<UnhandledCall>): void {
  for (const call of calls) {
    const label = `${call.itemType} ${call.name}`;
    const flags = { isReadOnly: false, isDestructive: false };
    emit({ type: 'activity.started', step, callId: call.callId, toolName: call.name, label, executionMode: 'parallel', ...flags });
    emit({
      type: 'activity.completed',
      step,
      callId: call.callId,
      toolName: call.name,
      label,
      status: 'error',
      durationMs: 0,
      repairs: [],
      error: call.error,
      ...flags,
    });
  }
}

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
  if (outcome.denial !== undefined) event.denial = outcome.denial;
  return event;
}

/** A call's output as text: a string as it is, content parts joined (an image part is `[image]`). */
function outputAsText(output: FunctionCallOutputItem['output']): string {
  if (typeof output === 'string') return output;
  return output.map((part) => (part.type === 'input_text' ? part.text : `[${part.type === 'input_image' ? 'image' : 'file'}]`)).join('\n');
}
