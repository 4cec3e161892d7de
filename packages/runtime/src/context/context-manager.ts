import type { AgentEvent } from '../loop/agent-events.js';
import { UsageError } from '../errors.js';
import type { ModelGateway, ModelResponse, ResponseInputItem } from '../gateway/model-gateway.js';
import type { ContextCompactor } from './context-compactor.js';
import { contextWindowOf, DEFAULT_COMPACTION_TARGET, DEFAULT_COMPACTION_THRESHOLD } from './context-window.js';
import { ContextWindowError, isContextLengthExceeded } from './context-window-error.js';
import { defaultCompactor } from './default-compactor.js';
import { describeThrown } from '../describe-thrown.js';
import { estimateTokens } from './estimate-tokens.js';
import { recentTailStart } from './recent-tail.js';

/** How `runAgentLoop` keeps a turn within the model's context window (`AgentLoopOptions.context`). */
export interface ContextOptions {
  /** The model's input window in tokens (default: `contextWindowOf(model, windows)`). */
  window?: number;
  /** Input windows by model name, over the built-in table (e.g. `{ 'my-finetune': 64000 }`). */
  windows?: Readonly<Record<string, number>>;
  /** The model whose window applies (default: the gateway's `model`). */
  model?: string;
  /** Compact before a request that would fill more than this share of the window (default 0.8). */
  threshold?: number;
  /** Share of the window a compaction aims for (default 0.4; below `threshold`). */
  target?: number;
  /**
   * How to compact (default: `defaultCompactor(gateway)`: the server's `/responses/compact`, else `localCompactor()`).
   * `false`: never compact; a request the model refuses as too long then ends the turn with a `ContextWindowError`.
   */
  compactor?: ContextCompactor | false;
}

/** The loop's history as the context manager sees and replaces it. */
export interface ContextHistory {
  /** Every item the loop holds (the whole history, or what came after `storedResponseId`). */
  readonly items: ResponseInputItem[];
  /** Set when the history before `pending` is stored on the server under this response (`previous_response_id`). */
  readonly storedResponseId: string | undefined;
  /** The items the stored response does not hold yet. */
  readonly pending: readonly ResponseInputItem[];
  /** Replaces the history by a compacted one; the next request carries it whole (no `previous_response_id`). */
  replace(items: ResponseInputItem[]): void;
}

/** Keeps one turn's requests within the window (see `createContextManager`). */
export interface ContextManager {
  /** Compactions made so far. */
  readonly compactions: number;
  /** Compacts the history when the next request would pass the threshold. */
  beforeRequest(step: number, history: ContextHistory, signal: AbortSignal | undefined): Promise<void>;
  /**
   * Runs `call` (the step's model request); when the model refuses it as too long, compacts and runs it once more.
   * @throws ContextWindowError when it is refused again or nothing could compact it; else what `call` throws.
   */
  send<T>(step: number, history: ContextHistory, signal: AbortSignal | undefined, call: () => Promise<T>): Promise<T>;
  /** Notes the response's `usage.input_tokens`; drops the history before a `compaction` item the server put in its output. */
  afterResponse(step: number, response: ModelResponse, history: ContextHistory): void;
}

/** With a stored chain: the loop's last step, when it holds that step whole and it ends with the unsent outputs. */
function recentStepOf(history: ContextHistory): { recentStep?: readonly ResponseInputItem[] } {
  const start = recentTailStart(history.items);
  const recent = history.items.slice(start);
  const pending = history.pending;
  if (recent.length === 0 || pending.length === 0 || pending.length > recent.length) return {};
  const endsWithPending = pending.every((item, index) => recent[recent.length - pending.length + index] === item);
  // The step's calls must be there too: a tail made of outputs alone belongs to a response the loop never saw.
  return endsWithPending && recent.length > pending.length ? { recentStep: recent } : {};
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function share(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(typeof value === 'number' && value > 0 && value <= 1)) {
    throw new UsageError('context_options_invalid', `context.${name} must be a share of the window between 0 and 1 (e.g. 0.8); got ${String(value)}.`);
  }
  return value;
}

/**
 * The context manager of one turn: its window, threshold and compactor, from `options`.
 * @throws UsageError (`context_options_invalid`) when the window is not a positive number, or threshold / target are
 *   not shares of the window with `target` below `threshold`.
 */
export function createContextManager(input: {
  options: ContextOptions;
  gateway: ModelGateway;
  instructions: string | undefined;
  tools: readonly unknown[];
  emit: (event: AgentEvent) => void;
}): ContextManager {
  const { options, gateway, instructions, emit } = input;
  const model = options.model ?? gateway.model;
  const window = options.window ?? contextWindowOf(model, options.windows);
  if (!(typeof window === 'number' && Number.isFinite(window) && window > 0)) {
    throw new UsageError('context_options_invalid', `context.window must be a positive number of tokens; got ${String(window)}.`);
  }
  const threshold = share(options.threshold, DEFAULT_COMPACTION_THRESHOLD, 'threshold');
  const target = share(options.target, Math.min(DEFAULT_COMPACTION_TARGET, threshold / 2), 'target');
  if (target >= threshold) {
    throw new UsageError(
      'context_options_invalid',
      `context.target (${target}) must be below context.threshold (${threshold}): a compaction has to leave room to go on.`,
    );
  }
  const compactionErrors: string[] = [];
  const compactor =
    options.compactor === false
      ? undefined
      : (options.compactor ?? defaultCompactor(gateway, { onError: (error, failed) => compactionErrors.push(`${failed.name}: ${describeThrown(error)}`) }));
  const fixedTokens = estimateTokens(instructions) + estimateTokens(input.tools.length === 0 ? undefined : input.tools);
  // The last measured size (a response's usage.input_tokens) and how many items the request it measured carried.
  let measured: number | undefined;
  let measuredLength = 0;
  let sentLength = 0;
  let compactions = 0;

  const estimate = (history: ContextHistory): number => {
    if (measured !== undefined) return measured + estimateTokens(history.items.slice(measuredLength));
    return fixedTokens + estimateTokens(history.storedResponseId === undefined ? history.items : history.pending);
  };

  const compact = async (step: number, reason: 'threshold' | 'overflow', history: ContextHistory, signal: AbortSignal | undefined): Promise<boolean> => {
    if (compactor === undefined) return false;
    const tokensBefore = estimate(history);
    const itemsBefore = history.items.length;
    const result = await compactor.compact({
      items: history.storedResponseId === undefined ? history.items : history.pending,
      ...(history.storedResponseId === undefined ? {} : { previousResponseId: history.storedResponseId, ...recentStepOf(history) }),
      ...(instructions === undefined ? {} : { instructions }),
      window,
      targetTokens: Math.floor(window * target),
      reason,
      ...(signal === undefined ? {} : { signal }),
    });
    if (result === undefined) return false;
    history.replace(result.items);
    measured = undefined;
    compactions += 1;
    emit({
      type: 'context.compacted',
      step,
      strategy: result.strategy,
      reason,
      tokensBefore,
      tokensAfter: estimate(history),
      window,
      itemsBefore,
      itemsAfter: history.items.length,
    });
    return true;
  };

  const tooLarge = (history: ContextHistory, cause: unknown, compacted: boolean): ContextWindowError => {
    const tokens = estimate(history);
    const modelName = model === undefined ? 'the model' : `model ${model}`;
    const how =
      compactor === undefined
        ? 'Context compaction is off (context.compactor: false).'
        : compacted
          ? 'It was refused again after the history was compacted.'
          : `The history could not be compacted${compactionErrors.length === 0 ? '' : ` (${compactionErrors.at(-1)})`}.`;
    return new ContextWindowError(
      `The model refused the request as longer than its context window: about ${tokens.toLocaleString('en-US')} tokens (4 characters a token) ` +
        `against the ${window.toLocaleString('en-US')}-token window set for ${modelName}. ${how} ` +
        "Shorten the input (large tool outputs, long messages), or set the model's real window in context.windows if it takes more.",
      { requestTokens: tokens, window, cause },
    );
  };

  return {
    get compactions() {
      return compactions;
    },
    async beforeRequest(step, history, signal) {
      if (compactor !== undefined && estimate(history) > window * threshold) await compact(step, 'threshold', history, signal);
      sentLength = history.items.length;
    },
    async send(step, history, signal, call) {
      try {
        return await call();
      } catch (error) {
        if (isAborted(signal) || !isContextLengthExceeded(error)) throw error;
        if (!(await compact(step, 'overflow', history, signal))) throw tooLarge(history, error, false);
      }
      sentLength = history.items.length;
      try {
        return await call();
      } catch (error) {
        if (!isAborted(signal) && isContextLengthExceeded(error)) throw tooLarge(history, error, true);
        throw error;
      }
    },
    afterResponse(step, response, history) {
      const inputTokens = response.usage?.inputTokens;
      if (inputTokens !== undefined && inputTokens > 0) {
        measured = inputTokens;
        measuredLength = sentLength;
      }
      if (gateway.usesPreviousResponseId || !response.output.some((item) => item.type === 'compaction')) return;
      let latest = history.items.length - 1;
      while (latest > 0 && (history.items[latest] as { type?: unknown }).type !== 'compaction') latest -= 1;
      if (latest <= 0) return;
      const tokensBefore = measured ?? estimate(history);
      const itemsBefore = history.items.length;
      history.replace(history.items.slice(latest));
      measured = undefined;
      compactions += 1;
      emit({
        type: 'context.compacted',
        step,
        strategy: 'server-side',
        reason: 'server',
        tokensBefore,
        tokensAfter: estimate(history),
        window,
        itemsBefore,
        itemsAfter: history.items.length,
      });
    },
  };
}
