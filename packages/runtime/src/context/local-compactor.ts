import { isAbortError } from '../abort-error.js';
import type { ResponseInputItem } from '../gateway/model-gateway.js';
import type { ContextCompactor } from './context-compactor.js';
import { estimateTokens } from './estimate-tokens.js';
import { isUserMessage, recentTailStart } from './recent-tail.js';

type Item = Record<string, unknown>;

/** Options of `localCompactor`. */
export interface LocalCompactorOptions {
  /**
   * Outputs and arguments up to this many characters are never elided (default 400): replacing them would save
   * little and lose what the model needs most (short answers, ids, errors).
   */
  keepShorterThan?: number;
  /**
   * Replaces the older part of the history by a summary instead of notes: called with the older items (user
   * messages left out, they are kept), it resolves to the summary text, which goes in as one user message after the
   * kept user messages. `summarizeWithModel(gateway)` is one. A summary that fails (throws anything but an abort)
   * falls back to notes.
   */
  summarize?: (items: readonly ResponseInputItem[], signal: AbortSignal | undefined) => Promise<string>;
}

/** What an elided output says instead: what it was and how to get it back. */
function elisionNote(call: Item | undefined, size: number): string {
  const name = typeof call?.name === 'string' ? call.name : 'a tool';
  const args = typeof call?.arguments === 'string' ? call.arguments : typeof call?.input === 'string' ? call.input : '';
  const shown = args.length > 160 ? `${args.slice(0, 160)}…` : args;
  return (
    `[elided by context compaction: the output of ${name}(${shown}), ${size.toLocaleString('en-US')} characters, was removed to keep ` +
    "the conversation within the model's context window. Call the tool again if you need it.]"
  );
}

function outputSize(item: Item): number {
  return typeof item.output === 'string' ? item.output.length : JSON.stringify(item.output ?? '').length;
}

/** `item` with its long output or long arguments replaced by a note, or `undefined` when there is nothing to elide. */
function elided(item: Item, calls: ReadonlyMap<string, Item>, limit: number): Item | undefined {
  if ((item.type === 'function_call_output' || item.type === 'custom_tool_call_output') && outputSize(item) > limit) {
    const call = typeof item.call_id === 'string' ? calls.get(item.call_id) : undefined;
    return { ...item, output: elisionNote(call, outputSize(item)) };
  }
  if (item.type === 'function_call' && typeof item.arguments === 'string' && item.arguments.length > limit) {
    return { ...item, arguments: JSON.stringify({ elided: `${item.arguments.length} characters of arguments, removed by context compaction` }) };
  }
  return undefined;
}

/**
 * A compactor that needs no server: it keeps the instructions, every user message and the most recent step intact,
 * and replaces older tool outputs (and long call arguments) by a short note saying what was elided and that the tool
 * can be called again, oldest first, until the history fits the target. Calls and their outputs stay paired; reasoning
 * items and item ids are kept as they were, so the history stays valid under `store: false` and `store: true` alike.
 * The most recent step is elided too only when the history would not fit the window otherwise. With `summarize`, the
 * older part is replaced by a summary message instead. Resolves `undefined` when it cannot help: nothing to elide, or
 * the history is stored on the server (`previousResponseId`), where it cannot see it.
 */
export function localCompactor(options: LocalCompactorOptions = {}): ContextCompactor {
  const limit = options.keepShorterThan ?? 400;
  return {
    name: 'local',
    async compact(request) {
      if (request.previousResponseId !== undefined || request.items.length === 0) return undefined;
      const items = request.items as unknown as readonly Item[];
      const tailStart = recentTailStart(request.items);
      if (options.summarize !== undefined && tailStart > 0) {
        const summary = await summarized(request.items, tailStart, request.signal);
        if (summary !== undefined) return { items: summary, strategy: 'local-summary' };
      }
      const calls = new Map<string, Item>();
      for (const item of items)
        if ((item.type === 'function_call' || item.type === 'custom_tool_call') && typeof item.call_id === 'string') calls.set(item.call_id, item);
      let total = estimateTokens(items) + estimateTokens(request.instructions);
      const result = [...items];
      let changed = false;
      const pass = (from: number, to: number, goal: number): void => {
        for (let index = from; index < to && total > goal; index += 1) {
          const item = result[index] as Item;
          const replaced = elided(item, calls, limit);
          if (replaced === undefined) continue;
          total -= estimateTokens(item) - estimateTokens(replaced);
          result[index] = replaced;
          changed = true;
        }
      };
      pass(0, tailStart, request.targetTokens);
      pass(tailStart, result.length, request.window);
      return changed ? { items: result as unknown as ResponseInputItem[], strategy: 'local' } : undefined;
    },
  };

  async function summarized(items: readonly ResponseInputItem[], tailStart: number, signal: AbortSignal | undefined): Promise<ResponseInputItem[] | undefined> {
    const head = items.slice(0, tailStart);
    const older = head.filter((item) => !isUserMessage(item));
    if (older.length === 0) return undefined;
    let summary: string;
    try {
      summary = await options.summarize!(older, signal);
    } catch (error) {
      if (signal?.aborted === true || isAbortError(error)) throw error;
      return undefined;
    }
    if (summary.trim() === '') return undefined;
    const note: ResponseInputItem = {
      type: 'message',
      role: 'user',
      content: `[Summary of the earlier part of this conversation, written when it was compacted to fit the context window:]\n${summary.trim()}`,
    };
    return [...head.filter(isUserMessage), note, ...items.slice(tailStart)];
  }
}
