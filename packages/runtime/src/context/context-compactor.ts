import { isAbortError } from '../abort-error.js';
import type { ResponseInputItem } from '../gateway/model-gateway.js';

/** What a compactor is asked to shrink. */
export interface CompactionRequest {
  /**
   * The history to compact: every item of the conversation, or (when `previousResponseId` is set) only the items
   * the stored response does not hold yet.
   */
  items: readonly ResponseInputItem[];
  /** Set when the history before `items` is stored on the server under this response (`previous_response_id` mode). */
  previousResponseId?: string;
  /**
   * With `previousResponseId`: the most recent step as the loop holds it (the last response's items and the outputs of
   * its calls, which the model has not seen yet), when it has it. A compactor may append it after the compacted chain
   * so the model sees those outputs whole.
   */
  recentStep?: readonly ResponseInputItem[];
  instructions?: string;
  /** The model's input window, in tokens. */
  window: number;
  /** The size to aim for, in tokens (the threshold's `target` share of the window). */
  targetTokens: number;
  /** Why: the history crossed the threshold (`threshold`), or the model refused the request as too long (`overflow`). */
  reason: 'threshold' | 'overflow';
  signal?: AbortSignal;
}

/** A compacted history. */
export interface CompactionResult {
  /**
   * The whole history to go on from, valid for the API: every `function_call` still followed by its output, and
   * nothing that refers to a stored item the request cannot reach. It replaces the history (and a stored chain).
   */
  items: ResponseInputItem[];
  /** Which compactor produced it (for the `context.compacted` event), e.g. `server` or `local`. */
  strategy: string;
}

/**
 * A way to shrink a conversation's history. `compact` resolves to the compacted history, or `undefined` when this
 * compactor cannot help (e.g. the server has no compact endpoint), so a chain tries the next one. It throws only
 * for failures the caller should see (an abort).
 */
export interface ContextCompactor {
  readonly name: string;
  compact(request: CompactionRequest): Promise<CompactionResult | undefined>;
}

/**
 * A compactor that asks each of `compactors` in turn and takes the first result. A compactor that fails (throws
 * anything but an abort) counts as one that cannot help; the error is passed to `onError` and the next one is tried.
 * Resolves `undefined` when none could compact. Aborts propagate.
 */
export function chainCompactors(
  compactors: readonly ContextCompactor[],
  options: { onError?: (error: unknown, compactor: ContextCompactor) => void } = {},
): ContextCompactor {
  return {
    name: compactors.map((compactor) => compactor.name).join(' > '),
    async compact(request) {
      for (const compactor of compactors) {
        try {
          const result = await compactor.compact(request);
          if (result !== undefined) return result;
        } catch (error) {
          if (request.signal?.aborted === true || isAbortError(error)) throw error;
          options.onError?.(error, compactor);
        }
      }
      return undefined;
    },
  };
}
