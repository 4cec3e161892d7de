import type { AgentEvent, ModelGateway } from '@core/runtime';
import { isOpenTelemetryRegistered } from '@core/otel/registered';

/** A turn's tracing: feed it every event; `end(error)` when the turn threw. */
export interface TurnTracing {
  onEvent(event: AgentEvent): void;
  end(error?: unknown): void;
}

/** What names a traced turn. */
export interface TurnTraceSubject {
  agentId: string;
  /** `gen_ai.conversation.id`: the conversation, job or task the turn belongs to. */
  conversationId?: string;
  /** More attributes of the turn span (`ankole.job.id`, `ankole.workflow.id`, …). */
  attributes?: Record<string, string>;
}

/**
 * Starts tracing a turn when an OpenTelemetry SDK has registered a tracer provider in this process (say, through
 * `node --import ./tracing.mjs`); otherwise returns undefined having loaded nothing, so a turn with no SDK pays nothing.
 */
export async function startTurnTracing(gateway: ModelGateway, subject: TurnTraceSubject): Promise<TurnTracing | undefined> {
  if (!isOpenTelemetryRegistered()) return undefined;
  const { traceAgentTurn } = await import('@core/otel');
  return traceAgentTurn({
    model: gateway.model ?? 'unknown',
    agentName: subject.agentId,
    ...(gateway.endpoint === undefined ? {} : { baseURL: gateway.endpoint }),
    ...(subject.conversationId === undefined ? {} : { conversationId: subject.conversationId }),
    ...(subject.attributes === undefined ? {} : { attributes: subject.attributes }),
  });
}
