import { context as otelContext, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { AgentEvent, TokenUsage } from '@core/runtime';
import { ANKOLE, GEN_AI } from './gen-ai-attributes.js';

/** The tracer name (instrumentation scope) spans are made under when no tracer is given. */
export const TRACER_NAME = '@core/otel';

export interface AgentTurnTracingOptions {
  /** The model the turn calls (`gen_ai.request.model`, and the model-call span's name). */
  model: string;
  /** Default: `trace.getTracer('@core/otel')` from the globally registered provider. */
  tracer?: Tracer;
  /** `gen_ai.agent.name`; also names the turn span (`invoke_agent <name>`). */
  agentName?: string;
  agentId?: string;
  /** `gen_ai.conversation.id` (a conversation, job or task id). */
  conversationId?: string;
  /** `gen_ai.provider.name`. Default `openai`. */
  providerName?: string;
  /** The model endpoint; gives `server.address` and `server.port` of the model-call spans. */
  baseURL?: string;
  /** The parent of the turn span. Default: the active context. */
  parentContext?: Context;
  /** More attributes for the turn span (say, `ankole.job.id`). */
  attributes?: Attributes;
}

export interface AgentTurnTracing {
  /** Pass every event of the turn here (`runAgentLoop({ onEvent })`). */
  readonly onEvent: (event: AgentEvent) => void;
  /**
   * Ends whatever is still open: for a turn that threw before its `turn.completed` event (pass the error), or was
   * abandoned. Does nothing after `turn.completed`.
   */
  readonly end: (error?: unknown) => void;
  /** The turn's span (`invoke_agent`): the parent of its model-call and tool-call spans. */
  readonly turnSpan: Span;
}

/**
 * Traces one agent turn from its events: a span for the turn (`invoke_agent`), one per model call (`chat <model>`,
 * with token usage) and one per tool call (`execute_tool <tool>`, with its label, flags, status and repairs), named
 * and attributed after the OpenTelemetry GenAI semantic conventions. Tool arguments and outputs are not recorded.
 */
export function traceAgentTurn(options: AgentTurnTracingOptions): AgentTurnTracing {
  const tracer = options.tracer ?? trace.getTracer(TRACER_NAME);
  const provider = options.providerName ?? 'openai';
  const server = serverAttributes(options.baseURL);
  const turnSpan = tracer.startSpan(
    options.agentName === undefined ? 'invoke_agent' : `invoke_agent ${options.agentName}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        [GEN_AI.operationName]: 'invoke_agent',
        [GEN_AI.providerName]: provider,
        [GEN_AI.requestModel]: options.model,
        ...(options.agentName === undefined ? {} : { [GEN_AI.agentName]: options.agentName }),
        ...(options.agentId === undefined ? {} : { [GEN_AI.agentId]: options.agentId }),
        ...(options.conversationId === undefined ? {} : { [GEN_AI.conversationId]: options.conversationId }),
        ...options.attributes,
      },
    },
    options.parentContext ?? otelContext.active(),
  );
  const turnContext = trace.setSpan(options.parentContext ?? otelContext.active(), turnSpan);
  let modelCall: Span | undefined;
  const toolCalls = new Map<string, Span>();
  let ended = false;

  const endModelCall = (failure?: string): void => {
    if (modelCall === undefined) return;
    if (failure !== undefined) markFailed(modelCall, 'model_error', failure);
    modelCall.end();
    modelCall = undefined;
  };

  const endAll = (failure?: string): void => {
    endModelCall(failure);
    for (const span of toolCalls.values()) {
      markFailed(span, 'aborted', 'the turn ended before the tool call finished');
      span.end();
    }
    toolCalls.clear();
    ended = true;
  };

  const onEvent = (event: AgentEvent): void => {
    if (ended) return;
    switch (event.type) {
      case 'turn.started':
        turnSpan.setAttribute(ANKOLE.turnTools, event.tools);
        return;
      case 'step.started':
        endModelCall();
        modelCall = tracer.startSpan(
          `chat ${options.model}`,
          {
            kind: SpanKind.CLIENT,
            attributes: {
              [GEN_AI.operationName]: 'chat',
              [GEN_AI.providerName]: provider,
              [GEN_AI.requestModel]: options.model,
              [ANKOLE.step]: event.step,
              ...server,
            },
          },
          turnContext,
        );
        return;
      case 'usage':
        if (modelCall !== undefined) modelCall.setAttributes(usageAttributes(event.usage));
        endModelCall();
        return;
      case 'activity.started': {
        const span = tracer.startSpan(
          `execute_tool ${event.toolName}`,
          {
            kind: SpanKind.INTERNAL,
            attributes: {
              [GEN_AI.operationName]: 'execute_tool',
              [GEN_AI.toolName]: event.toolName,
              [GEN_AI.toolCallId]: event.callId,
              [GEN_AI.toolType]: 'function',
              [ANKOLE.step]: event.step,
              [ANKOLE.toolLabel]: event.label,
              [ANKOLE.toolExecutionMode]: event.executionMode,
              ...(event.namespace === undefined ? {} : { [ANKOLE.toolNamespace]: event.namespace }),
              ...(event.isReadOnly === undefined ? {} : { [ANKOLE.toolReadOnly]: event.isReadOnly }),
              ...(event.isDestructive === undefined ? {} : { [ANKOLE.toolDestructive]: event.isDestructive }),
            },
          },
          turnContext,
        );
        toolCalls.set(callKey(event.step, event.callId), span);
        return;
      }
      case 'activity.completed': {
        const key = callKey(event.step, event.callId);
        const span =
          toolCalls.get(key) ??
          tracer.startSpan(
            `execute_tool ${event.toolName}`,
            {
              kind: SpanKind.INTERNAL,
              startTime: Date.now() - event.durationMs,
              attributes: { [GEN_AI.operationName]: 'execute_tool', [GEN_AI.toolName]: event.toolName, [GEN_AI.toolCallId]: event.callId, [GEN_AI.toolType]: 'function', [ANKOLE.toolLabel]: event.label },
            },
            turnContext,
          );
        toolCalls.delete(key);
        span.setAttribute(ANKOLE.toolStatus, event.status);
        if (event.repairs.length > 0) span.setAttribute(ANKOLE.toolRepairs, event.repairs.map((repair) => repair.kind));
        if (event.status !== 'success') markFailed(span, event.status, event.error ?? `the tool call ended with status ${event.status}`);
        span.end();
        return;
      }
      case 'approval.requested':
        turnSpan.addEvent('ankole.approval.requested', { [GEN_AI.toolName]: event.toolName, [GEN_AI.toolCallId]: event.callId, [ANKOLE.toolLabel]: event.label });
        return;
      case 'approval.decided':
        turnSpan.addEvent('ankole.approval.decided', {
          [GEN_AI.toolName]: event.toolName,
          [GEN_AI.toolCallId]: event.callId,
          [ANKOLE.approvalDecision]: event.decision,
          ...(event.reason === undefined ? {} : { [ANKOLE.approvalReason]: event.reason }),
          ...(event.by === undefined ? {} : { [ANKOLE.approvalDeniedBy]: event.by }),
        });
        return;
      case 'context.compacted':
        turnSpan.addEvent('ankole.context.compacted', {
          'ankole.context.strategy': event.strategy,
          'ankole.context.reason': event.reason,
          'ankole.context.tokens_before': event.tokensBefore,
          'ankole.context.tokens_after': event.tokensAfter,
          'ankole.context.window': event.window,
        });
        return;
      case 'tool_search.completed':
        turnSpan.addEvent('ankole.tool_search.completed', { [GEN_AI.toolCallId]: event.callId, 'ankole.tool_search.tools': event.toolNames });
        return;
      case 'turn.completed':
        turnSpan.setAttributes({ [ANKOLE.turnEndReason]: event.reason, [ANKOLE.turnSteps]: event.steps, ...usageAttributes(event.usage) });
        if (event.reason === 'error') markFailed(turnSpan, 'model_error', event.error ?? 'the model call failed');
        endAll(event.reason === 'error' ? (event.error ?? 'the model call failed') : undefined);
        turnSpan.end();
        return;
      default:
        return;
    }
  };

  const end = (error?: unknown): void => {
    if (ended) return;
    const message = error === undefined ? 'the turn ended without completing' : error instanceof Error ? error.message : String(error);
    if (error instanceof Error) turnSpan.recordException(error);
    markFailed(turnSpan, error instanceof Error ? error.name : 'abandoned', message);
    endAll(message);
    turnSpan.end();
  };

  return { onEvent, end, turnSpan };
}

function callKey(step: number, callId: string): string {
  return `${step}\u0000${callId}`;
}

function markFailed(span: Span, errorType: string, message: string): void {
  span.setAttribute(GEN_AI.errorType, errorType);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

function usageAttributes(usage: TokenUsage): Attributes {
  return {
    [GEN_AI.inputTokens]: usage.inputTokens,
    [GEN_AI.outputTokens]: usage.outputTokens,
    ...(usage.cachedInputTokens === undefined ? {} : { [GEN_AI.cacheReadInputTokens]: usage.cachedInputTokens }),
    ...(usage.reasoningTokens === undefined ? {} : { [ANKOLE.reasoningTokens]: usage.reasoningTokens }),
  };
}

function serverAttributes(baseURL: string | undefined): Attributes {
  if (baseURL === undefined) return {};
  try {
    const url = new URL(baseURL);
    const port = url.port === '' ? (url.protocol === 'http:' ? 80 : 443) : Number(url.port);
    return { [GEN_AI.serverAddress]: url.hostname, [GEN_AI.serverPort]: port };
  } catch {
    return {};
  }
}
