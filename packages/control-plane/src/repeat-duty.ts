/** A background duty started by `repeatDuty`. */
export interface RepeatingDuty {
  /** No further runs; resolves once a run in progress ended. */
  stop(): Promise<void>;
}

/**
 * Runs `duty` at once, then again `intervalMs` after each run ends (never two runs at once), until
 * stopped. A run's error goes to `onError` (not after `stop`) and the next run retries.
 */
export function repeatDuty(duty: () => Promise<unknown>, intervalMs: number, onError: (error: unknown) => void): RepeatingDuty {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    running = duty()
      .then(
        () => {},
        (error: unknown) => {
          if (!stopped) onError(error);
        },
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(run, intervalMs);
      });
  };
  timer = setTimeout(run, 0);
  return {
    async stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      await running;
    },
  };
}
