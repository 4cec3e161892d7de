/** Options of `followUntilFinished`. */
export interface FollowOptions<T extends { status: string }> {
  /** Reads the record as stored now. */
  read: () => Promise<T>;
  /** Whether a status is final (nothing changes after it). */
  finished: (status: T['status']) => boolean;
  /** Hears the record each time its status changes (the first read included). */
  onStatus: (record: T) => void;
  /** The pause between reads (default 500 ms). */
  intervalMs?: number | undefined;
}

/**
 * Reads a job or workflow until its status is final and resolves with it: `--wait` and `--follow`. Each change of
 * status is told to `onStatus` once. Waits as long as it takes (a queued job waits for a worker); Ctrl-C ends it.
 * @throws what `read` throws.
 */
export async function followUntilFinished<T extends { status: string }>(options: FollowOptions<T>): Promise<T> {
  let last: string | undefined;
  for (;;) {
    const record = await options.read();
    if (record.status !== last) {
      last = record.status;
      options.onStatus(record);
    }
    if (options.finished(record.status)) return record;
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 500));
  }
}
