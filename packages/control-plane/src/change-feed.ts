import type { SqlDriver } from './sql-driver.js';

/**
 * The channel of a control plane's change notifications (migration 8's triggers send them): `job`, `task` or
 * `advance` when one is queued (due), `job:<id>` or `task:<id>` when a running one is cancelled, finished or
 * claimed by another worker.
 */
export function changeChannel(schema: string): string {
  return `${schema}_changes`;
}

/** A wait for a matching notification, set up before the check it follows so none is missed. */
export interface ChangeSubscription {
  /**
   * Resolves with the first matching payload since the subscription began (at once when one already came), or
   * `undefined` after `timeoutMs` or when `signal` aborts. Then the subscription is closed.
   */
  wait(timeoutMs: number, signal?: AbortSignal): Promise<string | undefined>;
  close(): void;
}

/** Change notifications of one control plane's database, shared by every long poll of this process. */
export interface ChangeFeed {
  /**
   * Starts listening when not yet listening and resolves once it listens (or failed to: then `listening` is false
   * and callers re-check often). Subscribe after it, or a notification sent meanwhile may be missed.
   */
  ready(): Promise<void>;
  subscribe(match: (payload: string) => boolean): ChangeSubscription;
  /**
   * Calls `onPayload` with every notification from now on, and `onGap` when notifications may have been missed (listening
   * failed or the connection was lost, and it listens again). Returns the function that stops.
   */
  watch(onPayload: (payload: string) => void, onGap: () => void): () => void;
  /** Whether notifications arrive now (`false` until listening, and after the connection was lost until it is back). */
  readonly listening: boolean;
  /** Ends every wait (each resolves `undefined`) and stops listening. */
  close(): Promise<void>;
}

interface Waiter {
  match: (payload: string) => boolean;
  payload: string | undefined;
  wake: ((payload: string | undefined) => void) | undefined;
}

/**
 * Listens on `options.channel` (default `changeChannel(schema)`) while anyone waits (from the first subscription; a lost connection is
 * re-established after `retryMs`, default 1000). Waits never depend on it alone: callers re-check at least every
 * few hundred ms when `listening` is false.
 */
export function createChangeFeed(options: { driver: SqlDriver; schema: string; channel?: string; retryMs?: number; onError?: (error: unknown) => void }): ChangeFeed {
  const waiters = new Set<Waiter>();
  const watchers = new Set<{ onPayload: (payload: string) => void; onGap: () => void }>();
  let listening = false;
  /** Whether listening failed or was lost since it last listened: notifications may have been missed. */
  let missed = false;
  let closed = false;
  let starting: Promise<void> | undefined;
  let stop: (() => Promise<void>) | undefined;
  let retryTimer: NodeJS.Timeout | undefined;

  const deliver = (payload: string) => {
    for (const waiter of waiters) {
      if (waiter.payload !== undefined || !waiter.match(payload)) continue;
      waiter.payload = payload;
      waiter.wake?.(payload);
    }
    for (const watcher of watchers) watcher.onPayload(payload);
  };

  const start = () => {
    if (closed || starting !== undefined || stop !== undefined || retryTimer !== undefined) return;
    starting = options.driver
      .listen(options.channel ?? changeChannel(options.schema), deliver, (error) => {
        listening = false;
        missed = true;
        stop = undefined;
        options.onError?.(error);
        scheduleRetry();
      })
      .then((unlisten) => {
        if (closed) return void unlisten();
        stop = unlisten;
        listening = true;
        if (missed) for (const watcher of watchers) watcher.onGap();
        missed = false;
      })
      .catch((error: unknown) => {
        missed = true;
        options.onError?.(error);
        scheduleRetry();
      })
      .finally(() => {
        starting = undefined;
      });
  };
  const scheduleRetry = () => {
    if (closed || retryTimer !== undefined) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      start();
    }, options.retryMs ?? 1000);
    retryTimer.unref();
  };

  return {
    get listening() {
      return listening;
    },
    async ready() {
      start();
      await starting;
    },
    subscribe(match) {
      start();
      const waiter: Waiter = { match, payload: undefined, wake: undefined };
      if (!closed) waiters.add(waiter);
      return {
        wait(timeoutMs, signal) {
          if (waiter.payload !== undefined || closed || signal?.aborted || timeoutMs <= 0) {
            waiters.delete(waiter);
            return Promise.resolve(waiter.payload);
          }
          return new Promise<string | undefined>((resolve) => {
            const done = (payload: string | undefined) => {
              clearTimeout(timer);
              signal?.removeEventListener('abort', onAbort);
              waiters.delete(waiter);
              waiter.wake = undefined;
              resolve(payload);
            };
            const onAbort = () => done(undefined);
            const timer = setTimeout(() => done(undefined), timeoutMs);
            signal?.addEventListener('abort', onAbort, { once: true });
            waiter.wake = done;
          });
        },
        close() {
          waiters.delete(waiter);
          waiter.wake?.(undefined);
        },
      };
    },
    watch(onPayload, onGap) {
      const watcher = { onPayload, onGap };
      if (!closed) watchers.add(watcher);
      start();
      return () => void watchers.delete(watcher);
    },
    async close() {
      closed = true;
      watchers.clear();
      if (retryTimer !== undefined) clearTimeout(retryTimer);
      for (const waiter of waiters) waiter.wake?.(undefined);
      waiters.clear();
      await starting;
      const unlisten = stop;
      stop = undefined;
      listening = false;
      await unlisten?.().catch(() => {});
    },
  };
}
