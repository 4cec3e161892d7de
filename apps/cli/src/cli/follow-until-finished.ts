import type { ControlPlaneChange, ControlPlaneChanges } from '@core/control-plane-client';

/** Options of `followUntilFinished`. */
export interface FollowOptions<T extends { status: string }> {
  /** Reads the record as stored now. */
  read: () => Promise<T>;
  /** Whether a status is final (nothing changes after it). */
  finished: (status: T['status']) => boolean;
  /** Hears the record each time its status changes (the first read included). */
  onStatus: (record: T) => void;
  /** The control plane's changes: the record is read again when one is about it (`about`), else only every `fallbackMs`. */
  changes?: ControlPlaneChanges | undefined;
  /** Whether a change is about the followed record (its id; a workflow's tasks). */
  about?: ((change: ControlPlaneChange) => boolean) | undefined;
  /** With `changes`: the longest wait between reads, in case a change was not heard (default 5 000 ms). */
  fallbackMs?: number | undefined;
  /** Without `changes`: the pause between reads (default 500 ms). */
  intervalMs?: number | undefined;
}

/**
 * Reads a job or workflow until its status is final and resolves with it: `--wait` and `--follow`. Each change of
 * status is told to `onStatus` once. With `changes`, it waits for one about the record (or a `gap`) between reads,
 * so a status shows as soon as it is stored without asking twice a second. Waits as long as it takes (a queued job
 * waits for a worker); Ctrl-C ends it.
 * @throws what `read` throws.
 */
export async function followUntilFinished<T extends { status: string }>(options: FollowOptions<T>): Promise<T> {
  let wake: (() => void) | undefined;
  let changed = false;
  const stop = await options.changes?.subscribe((event) => {
    if (event.kind !== 'gap' && options.about?.(event) === false) return;
    changed = true;
    wake?.();
  });
  try {
    let last: string | undefined;
    for (;;) {
      changed = false;
      const record = await options.read();
      if (record.status !== last) {
        last = record.status;
        options.onStatus(record);
      }
      if (options.finished(record.status)) return record;
      const waitMs = stop === undefined ? (options.intervalMs ?? 500) : (options.fallbackMs ?? 5_000);
      if (!changed) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, waitMs);
          function done() {
            clearTimeout(timer);
            wake = undefined;
            resolve();
          }
          wake = done;
        });
      }
    }
  } finally {
    stop?.();
  }
}
