import type { AgentEvent, AgentLoopResult, TurnEndReason } from '@core/runtime';
import type { TurnRenderer } from './turn-renderer.js';

/** One kept event of a turn: when it happened and the event (as a transcript stores it). */
export interface TranscriptEventEntry {
  time: string;
  event: { type: string } & Record<string, unknown>;
}

/** Options of `replayTranscript`. */
export interface ReplayTranscriptOptions {
  entries: readonly TranscriptEventEntry[];
  /** The renderer to draw with (the one a live turn uses), fresh for this transcript. */
  renderer: TurnRenderer;
  /** Lines to show before the summary (what the size bound left out). */
  notes?: readonly string[];
}

/**
 * Draws a stored turn as it was drawn live: each event goes to the renderer in order (a whole message stands for its
 * streamed deltas), then the closing summary from the `turn.completed` event (duration: first to last event). Returns
 * whether the transcript reached its end; without a `turn.completed` (the worker stopped mid-turn) there is no summary.
 */
export function replayTranscript(options: ReplayTranscriptOptions): boolean {
  const { renderer, entries } = options;
  let completed: Extract<AgentEvent, { type: 'turn.completed' }> | undefined;
  let toolCalls = 0;
  for (const { event: stored } of entries) {
    const event = stored as unknown as AgentEvent;
    if (event.type === 'text.delta') continue;
    if (event.type === 'message.completed') {
      renderer.event({ type: 'text.delta', step: event.step, delta: event.text, itemId: event.itemId, ...(event.phase === undefined ? {} : { phase: event.phase }) });
      continue;
    }
    if (event.type === 'activity.completed') toolCalls += 1;
    if (event.type === 'turn.completed') {
      completed = event;
      continue;
    }
    renderer.event(event);
  }
  for (const note of options.notes ?? []) renderer.warning(note);
  if (completed === undefined) {
    renderer.release();
    return false;
  }
  renderer.event(completed);
  const first = Date.parse(entries[0]?.time ?? '');
  const last = Date.parse(entries.at(-1)?.time ?? '');
  const outcome: AgentLoopResult = {
    reason: completed.reason,
    steps: completed.steps ?? 0,
    text: completed.text ?? '',
    items: [],
    usage: completed.usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    toolCalls,
    pendingItems: [],
    compactions: entries.filter((entry) => entry.event.type === 'context.compacted').length,
    ...(completed.error === undefined ? {} : { error: completed.error }),
  };
  const ok: readonly TurnEndReason[] = ['completed', 'terminated', 'awaiting_approval'];
  renderer.finish({
    outcome,
    durationMs: Number.isFinite(first) && Number.isFinite(last) ? Math.max(0, last - first) : 0,
    interrupted: false,
    exitCode: ok.includes(completed.reason) ? 0 : 1,
    ...(completed.error === undefined ? {} : { failure: completed.error }),
  });
  return true;
}
