import type { ModelGateway, ResponseInputItem } from '../gateway/model-gateway.js';
import type { ContextCompactor } from './context-compactor.js';
import { estimateTokens } from './estimate-tokens.js';
import { recentTailStart } from './recent-tail.js';

/** The recent step to append after a compacted chain, when there is one and it fits the target. */
function fitting(recent: readonly ResponseInputItem[] | undefined, targetTokens: number): readonly ResponseInputItem[] {
  return recent === undefined || estimateTokens(recent) > targetTokens ? [] : recent;
}

/** HTTP statuses that mean the server has no compact endpoint (rather than a compaction that failed). */
const UNAVAILABLE_STATUSES = new Set([404, 405, 501]);

/**
 * Compacts through the model endpoint's `POST /responses/compact` (`gateway.compact`): the server returns the user
 * messages and one opaque `compaction` item, which replace the history (and a stored `previous_response_id` chain).
 * The most recent step (the last response's items and the outputs of its calls, which the model has not seen yet) is
 * kept out of the compaction and appended intact when it fits the target (with a stored chain, the chain is compacted
 * whole and that step, `request.recentStep`, appended after it).
 * Resolves `undefined` when the gateway cannot compact or the server has no such endpoint (404, 405, 501: it stops
 * asking); any other failure is thrown (a `ModelGatewayError`).
 */
export function serverCompactor(gateway: ModelGateway): ContextCompactor {
  let unavailable = false;
  return {
    name: 'server',
    async compact(request) {
      if (unavailable || gateway.compact === undefined) return undefined;
      const whole = request.previousResponseId === undefined;
      let keep = whole ? recentTailStart(request.items) : request.items.length;
      if (keep < request.items.length && estimateTokens(request.items.slice(keep)) > request.targetTokens) keep = request.items.length;
      if (keep === 0 && whole) return undefined;
      try {
        const compacted = await gateway.compact(
          {
            input: request.items.slice(0, keep),
            ...(request.instructions === undefined ? {} : { instructions: request.instructions }),
            ...(request.previousResponseId === undefined ? {} : { previousResponseId: request.previousResponseId }),
          },
          request.signal === undefined ? {} : { signal: request.signal },
        );
        const kept = whole ? request.items.slice(keep) : fitting(request.recentStep, request.targetTokens);
        return { items: [...compacted.items, ...kept], strategy: 'server' };
      } catch (error) {
        const status = (error as { status?: unknown }).status;
        if (typeof status === 'number' && UNAVAILABLE_STATUSES.has(status)) {
          unavailable = true;
          return undefined;
        }
        throw error;
      }
    },
  };
}
