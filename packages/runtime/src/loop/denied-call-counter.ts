import type { DenialSource } from '../dispatch/call-denial.js';
import type { AgentEvent } from './agent-events.js';

/** How many calls of a turn were denied: in all (`total`) and by who denied them. */
export type DeniedCallCounts = { total: number } & Record<DenialSource, number>;

/** Counts a turn's denied calls from its events (fed live, or replayed from a transcript). */
export interface DeniedCallCounter {
  /** Counts `event` when it is the `activity.completed` of a denied call (one with a `denial`); ignores the rest. */
  add(event: AgentEvent | { type: string }): void;
  /** The counts so far (a copy). */
  counts(): DeniedCallCounts;
}

/**
 * A counter of denied calls for turn summaries: each `activity.completed` event with a `denial` counts once, under
 * its `by` (a stored event without a known `by` counts as a person's, the default of a denial).
 */
export function createDeniedCallCounter(): DeniedCallCounter {
  const counts: DeniedCallCounts = { total: 0, config: 0, person: 0, unattended: 0 };
  return {
    add(event) {
      if (event.type !== 'activity.completed') return;
      const denial = (event as { denial?: { by?: unknown } }).denial;
      if (denial === undefined || denial === null) return;
      const by: DenialSource = denial.by === 'config' || denial.by === 'unattended' ? denial.by : 'person';
      counts.total += 1;
      counts[by] += 1;
    },
    counts: () => ({ ...counts }),
  };
}
