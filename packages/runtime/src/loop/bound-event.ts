import type { AgentEvent } from './agent-events.js';

/** What `boundEvent` made of an event. */
export interface BoundEvent {
  /** The event with every string longer than the bound cut, a marker saying how much was left out. */
  event: AgentEvent;
  /** How many strings were cut. */
  truncatedStrings: number;
}

/** The default of `boundEvent`'s `maxStringChars`: a long tool output or argument is kept to this many characters. */
export const DEFAULT_MAX_EVENT_STRING_CHARS = 8_000;

/**
 * An event made fit for keeping (a transcript): every string in it (a call's `output` or `arguments`, a message's
 * text, nested `details`) longer than `maxStringChars` is cut to that length and ends with
 * `… [N more characters left out]` (the event's `type` is kept whole; a cut never splits a surrogate pair). Returns the event itself when nothing was cut; never throws for plain JSON data.
 */
export function boundEvent(event: AgentEvent, options: { maxStringChars?: number } = {}): BoundEvent {
  const max = Math.max(1, options.maxStringChars ?? DEFAULT_MAX_EVENT_STRING_CHARS);
  let truncatedStrings = 0;
  const bound = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') {
      if (value.length <= max) return value;
      truncatedStrings += 1;
      // Never between the two halves of a surrogate pair (a lone half is not Unicode and cannot be stored).
      const kept = isHighSurrogate(value.charCodeAt(max - 1)) ? max - 1 : max;
      return `${value.slice(0, kept)}… [${value.length - kept} more characters left out]`;
    }
    if (typeof value !== 'object' || value === null || depth > 20) return value;
    if (Array.isArray(value)) {
      let changed = false;
      const copy = value.map((item) => {
        const next = bound(item, depth + 1);
        if (next !== item) changed = true;
        return next;
      });
      return changed ? copy : value;
    }
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      // The event's own `type` is never cut.
      if (depth === 0 && key === 'type') continue;
      const next = bound(item, depth + 1);
      if (next !== item) {
        copy ??= { ...(value as Record<string, unknown>) };
        copy[key] = next;
      }
    }
    return copy ?? value;
  };
  return { event: bound(event, 0) as AgentEvent, truncatedStrings };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
