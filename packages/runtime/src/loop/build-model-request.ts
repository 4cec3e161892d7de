import type { ModelCallOptions, ModelGateway, ModelRequest, OutputItemSource, ResponseOutputItem } from '../gateway/model-gateway.js';
import type { ResponsesTool } from '../schema/collect-tool-schemas.js';
import type { Emit } from './turn-events.js';
import type { TurnState } from './turn-state.js';

/**
 * The request of the next model call: the whole history (stateless), or in `previous_response_id` mode only the
 * items no request has carried yet, continuing from the last response.
 */
export function buildModelRequest(gateway: ModelGateway, state: TurnState, tools: ResponsesTool[], instructions: string | undefined): ModelRequest {
  const chained = gateway.usesPreviousResponseId;
  return {
    input: chained ? state.newItems : state.items,
    ...(instructions === undefined ? {} : { instructions }),
    tools,
    ...(chained && state.responseId !== undefined ? { previousResponseId: state.responseId } : {}),
  };
}

/** The options of one model call: the turn's signal, text deltas as events, completed items to eager dispatch. */
export function modelCallOptions(
  step: number,
  emit: Emit,
  signal: AbortSignal | undefined,
  onOutputItemDone: ((item: ResponseOutputItem, source: OutputItemSource) => void) | undefined,
): ModelCallOptions {
  return {
    ...(signal === undefined ? {} : { signal }),
    onTextDelta: (delta, source) =>
      emit({ type: 'text.delta', step, delta, itemId: source.itemId, ...(source.phase === undefined ? {} : { phase: source.phase }) }),
    ...(onOutputItemDone === undefined ? {} : { onOutputItemDone }),
  };
}
