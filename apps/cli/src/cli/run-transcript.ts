import { boundEvent, DEFAULT_MAX_EVENT_STRING_CHARS, type AgentEvent } from '@core/runtime';
import type { TranscriptEventEntry } from '../render/replay-transcript.js';
import type { RunTranscript } from './conversation-store.js';

/** Most bytes of JSON one `ankole run` transcript keeps (as the control plane's default bound for a job's). */
export const MAX_RUN_TRANSCRIPT_BYTES = 1_048_576;

/** Collects one `ankole run` turn's events for its transcript. */
export interface RunTranscriptCollector {
  /** Keeps the event (streamed text deltas are left out: the whole message follows). */
  record(event: AgentEvent): void;
  /** The transcript so far. */
  transcript(): RunTranscript;
}

/**
 * A collector for the transcript of turn `turn` of a conversation, bounded like a job's in the control plane: each
 * string longer than `maxStringChars` (default 8 000) is cut saying how much was left out, and once `maxBytes`
 * (default 1 MiB) are kept later events are counted and left out (`turn.completed` excepted).
 */
export function createRunTranscript(options: { conversationId: string; turn: number; maxBytes?: number; maxStringChars?: number }): RunTranscriptCollector {
  const maxBytes = options.maxBytes ?? MAX_RUN_TRANSCRIPT_BYTES;
  const entries: TranscriptEventEntry[] = [];
  const startedAt = new Date().toISOString();
  let bytes = 0;
  let droppedEvents = 0;
  let truncatedEvents = 0;
  return {
    record(event) {
      if (event.type === 'text.delta') return;
      const bounded = boundEvent(event, { maxStringChars: options.maxStringChars ?? DEFAULT_MAX_EVENT_STRING_CHARS });
      const entry = { time: new Date().toISOString(), event: bounded.event as unknown as TranscriptEventEntry['event'] };
      const size = Buffer.byteLength(JSON.stringify(entry));
      if (bytes + size > maxBytes && event.type !== 'turn.completed') {
        droppedEvents += 1;
        return;
      }
      bytes += size;
      if (bounded.truncatedStrings > 0) truncatedEvents += 1;
      entries.push(entry);
    },
    transcript: () => ({ version: 1, conversationId: options.conversationId, turn: options.turn, startedAt, entries: [...entries], droppedEvents, truncatedEvents }),
  };
}
