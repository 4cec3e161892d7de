import type { AgentLoopResult, ResponseInputItem } from '@core/runtime';
import type { Conversation, ConversationMode, ConversationStore } from './conversation-store.js';
import { CliError } from './cli-error.js';
import { resolveIdPrefix } from './id-prefix.js';

/** What the next turn of a conversation sends. */
export interface ConversationTurnPlan {
  conversation: Conversation;
  /** The turn's number (1 for a new conversation). */
  turn: number;
  /** The turn's input: the whole history and the new message, or (chained) the unsent items and the new message. */
  input: ResponseInputItem[];
  /** Set when the turn goes on from the stored last response (`previous_response_id` mode). */
  previousResponseId?: string;
}

/**
 * The conversation `--continue` (the agent's most recently updated one) or `--resume ID` (a whole id or a unique
 * prefix) names; `undefined` when neither is given (a new conversation).
 * @throws CliError when both are given, there is nothing to continue, or the id matches no conversation (or several).
 */
export async function chooseConversation(options: { store: ConversationStore; agent: string; continueLast: boolean; resume: string | undefined }): Promise<Conversation | undefined> {
  const { store } = options;
  if (options.continueLast && options.resume !== undefined) {
    throw new CliError('options_conflict', '--continue and --resume both choose the conversation to go on with: give one of them.');
  }
  if (options.continueLast) {
    const last = await store.last();
    if (last === undefined) {
      throw new CliError('conversation_none', `Agent ${options.agent} has no conversation to continue yet: start one with ankole run "<prompt>".`);
    }
    return last;
  }
  if (options.resume === undefined) return undefined;
  const id = await resolveIdPrefix({ given: options.resume, kind: 'conversation', candidates: async () => (await store.list()).map((conversation) => conversation.id) });
  return store.load(id);
}

/**
 * The input of the next turn. Stateless: the whole history, then the new message. Chained (`previous_response_id`
 * mode) when the last response was stored: only the items after it and the new message, from that response.
 */
export function planConversationTurn(conversation: Conversation, prompt: string, chained: boolean): ConversationTurnPlan {
  const message: ResponseInputItem = { type: 'message', role: 'user', content: prompt };
  const turn = conversation.turns.length + 1;
  if (chained && conversation.storedResponseId !== null) {
    return { conversation, turn, input: [...conversation.pendingItems, message], previousResponseId: conversation.storedResponseId };
  }
  return { conversation, turn, input: [...conversation.items, message] };
}

/** The plan with the whole history instead of the stored response (when the server no longer has it). */
export function withWholeHistory(plan: ConversationTurnPlan, prompt: string): ConversationTurnPlan {
  return { conversation: plan.conversation, turn: plan.turn, input: [...plan.conversation.items, { type: 'message', role: 'user', content: prompt }] };
}

/** Options of `recordConversationTurn`. */
export interface RecordConversationTurnOptions {
  plan: ConversationTurnPlan;
  outcome: AgentLoopResult;
  prompt: string;
  startedAt: string;
  /** Whether the model gateway runs in `previous_response_id` mode (its responses are stored). */
  chained: boolean;
  model: string;
}

/**
 * The conversation after a turn: the turn listed, and the history to continue from. A turn that paused for approval
 * (its held calls have no output) adds no items, so the stored history stays valid.
 */
export function recordConversationTurn(options: RecordConversationTurnOptions): Conversation {
  const { plan, outcome } = options;
  const before = plan.conversation;
  const now = new Date().toISOString();
  const mode: ConversationMode = options.chained ? 'previous_response_id' : 'stateless';
  const turns = [
    ...before.turns,
    {
      number: plan.turn,
      prompt: options.prompt,
      startedAt: options.startedAt,
      endedAt: now,
      reason: outcome.reason,
      text: outcome.text,
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
      steps: outcome.steps,
      toolCalls: outcome.toolCalls,
      usage: outcome.usage,
      mode,
      model: options.model,
    },
  ];
  if (outcome.reason === 'awaiting_approval') return { ...before, turns, updatedAt: now };
  // Chained, the loop's items start at the unsent items: the history before them is the stored one. After a
  // compaction the loop holds the whole (compacted) history, which replaces the stored one.
  const items =
    plan.previousResponseId === undefined || outcome.compactions > 0 ? outcome.items : [...before.items, ...outcome.items.slice(before.pendingItems.length)];
  const stored = options.chained && outcome.responseId !== undefined;
  return {
    ...before,
    turns,
    updatedAt: now,
    items,
    storedResponseId: stored ? outcome.responseId! : null,
    pendingItems: stored ? outcome.pendingItems : [],
  };
}

/** Whether a model call failed because the server no longer has the `previous_response_id` it was given. */
export function isForgottenResponse(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    const { code, status } = current as { code?: unknown; status?: unknown };
    if (code === 'previous_response_not_found') return true;
    if ((status === 400 || status === 404) && /previous[_ ]response/i.test(current.message) && /not found|no longer|does not exist/i.test(current.message)) return true;
  }
  return false;
}
