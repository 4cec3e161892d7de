import type { ControlPlaneChange, ControlPlaneChanges } from '@core/control-plane-client';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';

/** Options of `streamChanges`. */
export interface ChangeStreamOptions {
  changes: ControlPlaneChanges;
  /** Only this agent's changes (`undefined`: every agent's). */
  agentId: string | undefined;
  /** Ends the stream (the server is closing, or the caller went away). */
  signal: AbortSignal;
  /** Whether the caller's token still stands, asked at every keep-alive: a revoked token's stream ends then. */
  stillAllowed(): Promise<boolean>;
  /** A comment line is sent this often so proxies keep the connection (and the token is checked again). */
  keepAliveMs: number;
  /** The stream ends after this long (`end` with reason `reconnect`), so no connection is held for ever. */
  maxDurationMs: number;
  /** Called once the stream ended, whatever ended it. */
  onEnd(): void;
}

/** Changes queued for one slow reader before they are replaced by a single `gap` (the reader reloads what it shows). */
const MAX_QUEUED = 256;

/**
 * Answers with a server-sent event stream (`text/event-stream`): `ready` once listening (what the caller reads after
 * it is current: nothing before it is missed), `change` with a `ControlPlaneChange` as JSON for each change of the
 * agent, `gap` when changes may have been missed (reload), and `end` with a reason before the server closes it
 * (`reconnect`, `revoked`, `closing`). Each stream holds at most MAX_QUEUED changes for a slow reader.
 */
export function streamChanges(c: Context, options: ChangeStreamOptions): Response {
  c.header('x-accel-buffering', 'no');
  return streamSSE(c, async (stream) => {
    const queue: Array<{ event: string; data: string }> = [];
    let wake: (() => void) | undefined;
    const push = (event: string, data: unknown) => {
      if (queue.length >= MAX_QUEUED) queue.splice(0, queue.length, { event: 'gap', data: '{}' });
      else queue.push({ event, data: JSON.stringify(data) });
      wake?.();
    };
    const visible = (change: ControlPlaneChange) => options.agentId === undefined || change.agentId === options.agentId;
    let ended: string | undefined;
    const end = (reason: string) => {
      ended ??= reason;
      wake?.();
    };
    const onAbort = () => end('closing');
    options.signal.addEventListener('abort', onAbort, { once: true });
    stream.onAbort(() => end('gone'));
    const timers = [
      setTimeout(() => end('reconnect'), options.maxDurationMs),
      setInterval(() => {
        push('keep-alive', {});
        options.stillAllowed().then(
          (allowed) => (allowed ? undefined : end('revoked')),
          () => undefined,
        );
      }, options.keepAliveMs),
    ];
    let stop: (() => void) | undefined;
    try {
      stop = await options.changes.subscribe((event) => {
        if (event.kind === 'gap') push('gap', {});
        else if (visible(event)) push('change', event);
      });
      if (options.signal.aborted) end('closing');
      // A reconnecting EventSource waits `retry` ms; ours reconnects itself, but other readers get the hint too.
      await stream.writeSSE({ event: 'ready', data: '{}', retry: 2000 });
      while (ended === undefined) {
        const next = queue.shift();
        if (next === undefined) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
          continue;
        }
        if (next.event === 'keep-alive') await stream.write(': keep-alive\n\n');
        else await stream.writeSSE(next);
      }
      if (ended !== 'gone') await stream.writeSSE({ event: 'end', data: JSON.stringify({ reason: ended }) });
    } finally {
      stop?.();
      for (const timer of timers) clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      options.onEnd();
    }
  });
}
