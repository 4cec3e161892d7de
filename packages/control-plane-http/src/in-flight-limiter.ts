/** A place taken in an `InFlightLimiter`; `release` gives it back (a second call does nothing). */
export interface InFlightSlot {
  release(): void;
}

/** Counts what is in progress per key and refuses one more past the cap. */
export interface InFlightLimiter {
  /** A slot for `key`, or `undefined` when `key` already holds `max`. */
  enter(key: string): InFlightSlot | undefined;
  /** How many `key` holds now. */
  count(key: string): number;
}

/** At most `max` slots held at once per key. */
export function createInFlightLimiter(options: { max: number }): InFlightLimiter {
  const held = new Map<string, number>();
  return {
    enter(key) {
      const count = held.get(key) ?? 0;
      if (count >= options.max) return undefined;
      held.set(key, count + 1);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          const left = (held.get(key) ?? 1) - 1;
          if (left > 0) held.set(key, left);
          else held.delete(key);
        },
      };
    },
    count: (key) => held.get(key) ?? 0,
  };
}
